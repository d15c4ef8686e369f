import { useMutation } from '@tanstack/react-query';
import { api } from '../../../api/http';
import { useApplyDriveChange } from './cache-effects';
import type { DeleteBody } from './types';

// The drive's writes (spec §7 and issue 5). Each one updates the listings in
// memory and in IndexedDB, then revalidates them and the storage summary.

export function useCreateFolder() {
  const apply = useApplyDriveChange();
  return useMutation({
    mutationFn: (input: { name: string; parentId: string | null }) => api.post('folders', input),
    onSuccess: () => apply({}),
  });
}

export function useRenameEntry() {
  const apply = useApplyDriveChange();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) => api.put('file-entries/{id}', { name }, { path: { id } }),
    onSuccess: ({ fileEntry }) => apply({ updated: [fileEntry] }),
  });
}

export function useMoveEntries() {
  const apply = useApplyDriveChange();
  return useMutation({
    mutationFn: (input: { entryIds: string[]; destinationId: string | null }) => api.post('file-entries/move', input),
    onSuccess: ({ entries }, { entryIds }) => apply({ removed: entryIds, updated: entries }),
  });
}

export function useDuplicateEntries() {
  const apply = useApplyDriveChange();
  return useMutation({
    mutationFn: (input: { entryIds: string[]; destinationId?: string | null }) => api.post('file-entries/duplicate', input),
    onSuccess: () => apply({}),
  });
}

/** POST file-entries/delete: to trash, forever, or the whole trash (spec §7). */
export function useDeleteEntries() {
  const apply = useApplyDriveChange();
  return useMutation({
    mutationFn: (body: DeleteBody) => api.post('file-entries/delete', body),
    onSuccess: (_response, body) => apply(body.deleteForever || body.emptyTrash ? { forgotten: body.entryIds ?? [] } : { removed: body.entryIds ?? [] }),
  });
}

export function useRestoreEntries() {
  const apply = useApplyDriveChange();
  return useMutation({
    mutationFn: (entryIds: string[]) => api.post('file-entries/restore', { entryIds }),
    onSuccess: ({ entries }, entryIds) => apply({ removed: entryIds, updated: entries }),
  });
}

export function useStarEntries() {
  const apply = useApplyDriveChange();
  return useMutation({
    mutationFn: ({ entryIds, star }: { entryIds: string[]; star: boolean }) =>
      star ? api.post('file-entries/star', { entryIds }) : api.post('file-entries/unstar', { entryIds }),
    onSuccess: ({ entries }) => apply({ updated: entries }),
  });
}
