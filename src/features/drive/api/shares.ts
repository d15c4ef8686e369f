import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { JsonResponse } from '../../../api/api-types';
import { api } from '../../../api/http';
import { activeWorkspaceId } from '../../../api/active-workspace';
import { driveKeys } from './keys';

// Sharing with people: who has access to an entry, and the calls that change it.
export type Share = JsonResponse<'/api/v1/file-entries/{id}/shares', 'get'>['shares'][number];
export type SharePermission = Share['permission'];

const sharesKey = (hash: string) => [...driveKeys.all(activeWorkspaceId()), 'shares', hash] as const;

export function useShares(hash: string) {
  return useQuery({
    queryKey: sharesKey(hash),
    queryFn: async ({ signal }) => (await api.get('file-entries/{id}/shares', { path: { id: hash }, signal })).shares,
  });
}

function useRefresh(hash: string) {
  const client = useQueryClient();
  return (shares: Share[]) => client.setQueryData(sharesKey(hash), shares);
}

export function useShareEntries(hash: string) {
  const refresh = useRefresh(hash);
  return useMutation({
    mutationFn: (input: { entryIds: string[]; emails: string[]; permission: SharePermission }) => api.post('file-entries/shares', input),
    onSuccess: ({ shares }) => refresh(shares),
  });
}

export function useChangeShare(hash: string) {
  const refresh = useRefresh(hash);
  return useMutation({
    mutationFn: ({ shareId, permission }: { shareId: number; permission: SharePermission }) =>
      api.put('file-entries/shares/{shareId}', { permission }, { path: { shareId } }),
    onSuccess: ({ shares }) => refresh(shares),
  });
}

export function useRemoveShare(hash: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (shareId: number) => api.delete('file-entries/shares/{shareId}', { path: { shareId } }),
    onSuccess: () => client.invalidateQueries({ queryKey: sharesKey(hash) }),
  });
}
