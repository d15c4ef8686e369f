import { useQueryClient } from '@tanstack/react-query';
import type { InfiniteData } from '@tanstack/react-query';
import { forgetEntries, putEntries, removeFromListings } from '../../../offline/listing-cache';
import { useDriveDb } from '../hooks/use-drive-db';
import { useActiveWorkspace } from '../../../api/active-workspace';
import { driveKeys } from './keys';
import type { FileEntry, ListResponse } from './types';

export interface CacheEffect {
  /** Entries the server returned changed (renamed, starred): shown at once everywhere. */
  updated?: FileEntry[];
  /** Entries that left the listings they were in (trashed, restored, moved). */
  removed?: string[];
  /** Entries gone for good. */
  forgotten?: string[];
}

function patchPages(data: InfiniteData<ListResponse> | undefined, effect: CacheEffect): InfiniteData<ListResponse> | undefined {
  if (!data) return data;
  const updated = new Map((effect.updated ?? []).map((e) => [e.id, e]));
  const gone = new Set([...(effect.removed ?? []), ...(effect.forgotten ?? [])]);
  return {
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      pagination: {
        ...page.pagination,
        data: page.pagination.data.filter((e) => !gone.has(e.id)).map((e) => updated.get(e.id) ?? e),
      },
    })),
  };
}

/**
 * After any change: patch the listings in memory and on the device right
 * away, then refetch every drive query and the storage summary (spec §7
 * "storage summary refreshed").
 */
export function useApplyDriveChange() {
  const client = useQueryClient();
  const db = useDriveDb();
  const workspaceId = useActiveWorkspace();
  return async (effect: CacheEffect) => {
    client.setQueriesData<InfiniteData<ListResponse>>({ queryKey: driveKeys.listings(workspaceId) }, (data) => patchPages(data, effect));
    await putEntries(db, effect.updated ?? []);
    await removeFromListings(db, effect.removed ?? []);
    if (effect.forgotten?.length) await forgetEntries(db, effect.forgotten);
    void client.invalidateQueries({ queryKey: driveKeys.all(workspaceId) });
    void client.invalidateQueries({ queryKey: driveKeys.usage });
  };
}
