import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { JsonResponse } from '../../../api/api-types';
import { api } from '../../../api/http';
import { activeWorkspaceId } from '../../../api/active-workspace';
import { driveKeys } from './keys';

// A file's versions (issue 34): the list, and restoring or deleting one.
export type FileVersion = JsonResponse<'/api/v1/file-entries/{id}/versions', 'get'>['versions'][number];

const versionsKey = (hash: string) => [...driveKeys.all(activeWorkspaceId()), 'versions', hash] as const;

export function useVersions(hash: string | null) {
  return useQuery({
    queryKey: versionsKey(hash ?? ''),
    enabled: hash !== null,
    queryFn: async ({ signal }) => (await api.get('file-entries/{id}/versions', { path: { id: hash! }, signal })).versions,
  });
}

/** Both change the file and its list: the drive's queries are refetched. */
export function useRestoreVersion(hash: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (versionId: number) => api.post('file-entries/{id}/versions/{versionId}/restore', undefined, { path: { id: hash, versionId } }),
    onSuccess: () => client.invalidateQueries({ queryKey: driveKeys.all(activeWorkspaceId()) }),
  });
}

export function useDeleteVersion(hash: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (versionId: number) => api.delete('file-entries/{id}/versions/{versionId}', { path: { id: hash, versionId } }),
    onSuccess: () => client.invalidateQueries({ queryKey: versionsKey(hash) }),
  });
}
