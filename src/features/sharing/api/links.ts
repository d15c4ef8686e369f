import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { JsonResponse } from '../../../api/api-types';
import { activeWorkspaceId } from '../../../api/active-workspace';
import { api } from '../../../api/http';
import { driveKeys } from '../../drive/api/keys';
import type { LinkSettingsBody } from '../lib/link-settings';

// Sharing by link, the owner's side: an entry's links, and the calls that change them.
export type ShareLink = JsonResponse<'/api/v1/file-entries/{id}/share-links', 'get'>['links'][number];
export type LinkEvent = JsonResponse<'/api/v1/share-links/{linkId}/events', 'get'>['pagination']['data'][number];

const linksKey = (hash: string) => [...driveKeys.all(activeWorkspaceId()), 'share-links', hash] as const;
const eventsKey = (linkId: number, page: number) => [...driveKeys.all(activeWorkspaceId()), 'share-link-events', linkId, page] as const;

export function useShareLinks(hash: string) {
  return useQuery({
    queryKey: linksKey(hash),
    queryFn: async ({ signal }) => (await api.get('file-entries/{id}/share-links', { path: { id: hash }, signal })).links,
    // Visitors move the counts: every opening of the dialog asks again.
    staleTime: 0,
  });
}

export function useCreateLink(hash: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (settings: LinkSettingsBody) => api.post('file-entries/{id}/share-links', settings, { path: { id: hash } }),
    onSuccess: ({ link }) => client.setQueryData<ShareLink[]>(linksKey(hash), (links) => [...(links ?? []), link]),
  });
}

export function useUpdateLink(hash: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ linkId, settings }: { linkId: number; settings: LinkSettingsBody }) => api.put('share-links/{linkId}', settings, { path: { linkId } }),
    onSuccess: ({ link }) => client.setQueryData<ShareLink[]>(linksKey(hash), (links) => (links ?? []).map((l) => (l.id === link.id ? link : l))),
  });
}

export function useDeleteLink(hash: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (linkId: number) => api.delete('share-links/{linkId}', { path: { linkId } }),
    onSuccess: (_answer, linkId) => client.setQueryData<ShareLink[]>(linksKey(hash), (links) => (links ?? []).filter((l) => l.id !== linkId)),
  });
}

export function useDeleteAllLinks(hash: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete('file-entries/{id}/share-links', { path: { id: hash } }),
    onSuccess: () => client.setQueryData<ShareLink[]>(linksKey(hash), []),
  });
}

export function useLinkEvents(linkId: number, page: number) {
  return useQuery({
    queryKey: eventsKey(linkId, page),
    queryFn: async ({ signal }) => (await api.get('share-links/{linkId}/events', { path: { linkId }, query: { page }, signal })).pagination,
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}
