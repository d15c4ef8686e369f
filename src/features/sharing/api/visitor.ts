import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { JsonResponse } from '../../../api/api-types';
import { api } from '../../../api/http';
import { buildRequest } from '../../../api/request';

// Sharing by link, the visitor's side: what a link shows, its password, its folders, downloads and drops.
export type VisitorLink = JsonResponse<'/api/v1/shared-links/{token}', 'get'>['link'];
export type LinkEntry = NonNullable<VisitorLink['entry']>;
export type LinkListing = JsonResponse<'/api/v1/shared-links/{token}/entries', 'get'>;

const linkKey = (token: string) => ['shared-link', token] as const;
const listingKey = (token: string, folderId: string | null, query: string) => ['shared-link', token, 'entries', folderId, query] as const;

export function useVisitorLink(token: string) {
  return useQuery({
    queryKey: linkKey(token),
    queryFn: async ({ signal }) => (await api.get('shared-links/{token}', { path: { token }, signal })).link,
    // A 404 or 410 is the link's answer, not a hiccup: nothing to retry.
    retry: false,
    staleTime: 0,
  });
}

export function useUnlockLink(token: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (password: string) => api.post('shared-links/{token}/password', { password }, { path: { token } }),
    onSuccess: ({ link }) => client.setQueryData(linkKey(token), link),
  });
}

export function useRefreshLink(token: string) {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: linkKey(token) });
}

export function useLinkListing(token: string, folderId: string | null, query: string, enabled: boolean) {
  return useQuery({
    queryKey: listingKey(token, folderId, query),
    queryFn: ({ signal }) =>
      api.get('shared-links/{token}/entries', {
        path: { token },
        query: { orderBy: 'name', orderDir: 'asc', perPage: 200, ...(folderId ? { folderId } : {}), ...(query ? { query } : {}) },
        signal,
      }),
    enabled,
    retry: false,
  });
}

/** One file, or a selection as a zip; the browser downloads it itself. */
export function linkDownloadUrl(token: string, hashes: string[]): string {
  return buildRequest({ method: 'GET', url: `shared-links/${encodeURIComponent(token)}/download`, params: { hashes: hashes.join(',') }, workspaceId: null })
    .url;
}

export function useDropUpload(token: string) {
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('file', file, file.name);
      return api.postForm('shared-links/{token}/file-entries', form, { path: { token } });
    },
  });
}
