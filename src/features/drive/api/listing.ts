import { useMemo } from 'react';
import { useInfiniteQuery, useIsRestoring } from '@tanstack/react-query';
import { api } from '../../../api/http';
import { readListing, writeListingPage } from '../../../offline/listing-cache';
import { usePaintFirst } from '../../../offline/paint-first';
import { useDriveDb } from '../hooks/use-drive-db';
import { listingKey, listingQuery } from '../lib/views';
import type { ListingParams } from '../lib/views';
import { useActiveWorkspace } from '../../../api/active-workspace';
import { driveKeys, driveQueryMeta } from './keys';
import { readOfflineFallback } from './offline-read';
import type { FileEntry, Folder, ListResponse } from './types';

export const PER_PAGE = 100;

export interface Listing {
  entries: FileEntry[];
  folder: Folder | null;
  /** Painted from the device's copy (the server has not answered in this visit). */
  fromCache: boolean;
  /** Neither the server nor the device has this listing yet. */
  isLoading: boolean;
  isError: boolean;
  error: unknown;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => void;
  isFetching: boolean;
}

/**
 * One listing (spec §3 Drive listing view): painted from IndexedDB first,
 * then from the server, whose first page replaces the stored copy and whose
 * further pages (next_cursor, fetched as the user scrolls) append to it.
 */
export function useListing(params: ListingParams, options: { enabled?: boolean } = {}): Listing {
  const db = useDriveDb();
  const workspaceId = useActiveWorkspace();
  const key = listingKey(params);
  const enabled = options.enabled ?? true;
  // While the device's query cache is read back the query waits (fetchStatus idle): the listing is still unknown, not empty.
  const restoring = useIsRestoring();
  const query = useInfiniteQuery({
    queryKey: driveKeys.listing(workspaceId, key),
    meta: driveQueryMeta,
    enabled,
    initialPageParam: null as string | null,
    getNextPageParam: (last: ListResponse) => last.pagination.next_cursor,
    queryFn: async ({ pageParam, signal }) => {
      const page = await api.get('drive/file-entries', { query: listingQuery(params, pageParam, PER_PAGE), signal });
      const { data, next_cursor, total } = page.pagination;
      await writeListingPage(db, key, { entries: data, folder: page.folder, nextCursor: next_cursor, total }, { replace: pageParam === null });
      return page;
    },
  });

  // Kept while the pages are: the listing's memos and its rows' context hang on this array's identity.
  const pages = query.data?.pages;
  const fresh = useMemo(() => pages && { entries: pages.flatMap((p): FileEntry[] => p.pagination.data), folder: pages[0]?.folder ?? null }, [pages]);
  const shown = usePaintFirst(
    async () => (enabled ? ((await readListing(db, key)) ?? (await readOfflineFallback(db, params))) : undefined),
    [db, key, enabled],
    fresh,
  );
  return {
    entries: shown.data?.entries ?? [],
    folder: shown.data?.folder ?? null,
    fromCache: shown.fromCache,
    isLoading: enabled && shown.missing && (query.fetchStatus === 'fetching' || restoring),
    isError: query.isError && !fresh,
    error: query.error,
    hasNextPage: query.hasNextPage,
    isFetchingNextPage: query.isFetchingNextPage,
    fetchNextPage: () => void query.fetchNextPage(),
    isFetching: query.isFetching,
  };
}
