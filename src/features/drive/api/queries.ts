import { useQuery } from '@tanstack/react-query';
import { api } from '../../../api/http';
import { readFolderTree, replaceFolderTree } from '../../../offline/listing-cache';
import { usePaintFirst } from '../../../offline/paint-first';
import { useDriveDb } from '../hooks/use-drive-db';
import { pathFromTree } from '../lib/folder-tree';
import { ROOT_HASH } from '../lib/views';
import { useActiveWorkspace } from '../../../api/active-workspace';
import { driveKeys, driveQueryMeta } from './keys';
import type { FolderCrumb, FolderNode } from './types';

/** GET user/space-usage (spec §3 Storage summary). */
export function useSpaceUsage() {
  const workspaceId = useActiveWorkspace();
  return useQuery({
    queryKey: driveKeys.usageOf(workspaceId),
    queryFn: ({ signal }) => api.get('user/space-usage', { signal }),
  });
}

/** GET drive/folders, kept on the device: the move dialog and offline breadcrumbs read it. */
export function useFolderTree(): { folders: FolderNode[]; isLoading: boolean } {
  const db = useDriveDb();
  const workspaceId = useActiveWorkspace();
  const query = useQuery({
    queryKey: driveKeys.tree(workspaceId),
    meta: driveQueryMeta,
    queryFn: async ({ signal }) => {
      const { folders } = await api.get('drive/folders', { signal });
      await replaceFolderTree(
        db,
        folders.map(({ hash, name, parent_id }) => ({ hash, name, parent_id })),
      );
      return folders;
    },
  });
  const shown = usePaintFirst(async () => (await readFolderTree(db))?.map((f) => ({ ...f, id: f.hash })), [db], query.data);
  return { folders: shown.data ?? [], isLoading: shown.missing };
}

/** Breadcrumbs (GET folders/{hash}/path), from the stored tree until the server answers. */
export function useFolderPath(hash: string): FolderCrumb[] | null {
  const { folders } = useFolderTree();
  const workspaceId = useActiveWorkspace();
  const query = useQuery({
    queryKey: driveKeys.path(workspaceId, hash),
    meta: driveQueryMeta,
    enabled: hash !== ROOT_HASH,
    queryFn: ({ signal }) => api.get('folders/{hash}/path', { path: { hash }, signal }).then((r) => r.path),
  });
  if (hash === ROOT_HASH) return [];
  return query.data ?? pathFromTree(folders, hash);
}

/** GET file-entries/{id}: the details panel. */
export function useEntryDetails(id: string | null) {
  const workspaceId = useActiveWorkspace();
  return useQuery({
    queryKey: driveKeys.details(workspaceId, id ?? ''),
    meta: driveQueryMeta,
    enabled: !!id,
    queryFn: ({ signal }) => api.get('file-entries/{id}', { path: { id: id ?? '' }, signal }).then((r) => r.fileEntry),
  });
}
