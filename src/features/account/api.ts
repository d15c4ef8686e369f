import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AccountUser, ChangePasswordBody, CreateTokenBody, UpdateAccountBody } from '../../api/api-types';
import { api } from '../../api/http';
import { queryKeys } from '../../api/query-keys';
import { updateBootstrap } from '../bootstrap/store';

// Account settings calls (spec §7 users/*, access-tokens). The current user
// with roles, social profiles and tokens is one query; writes refresh it.

export const ACCOUNT_RELATIONS = ['roles', 'social_profiles', 'tokens'] as const;

export function useAccountUser() {
  return useQuery({
    queryKey: queryKeys.accountUser,
    queryFn: ({ signal }) => api.get('users/{id}', { path: { id: 'me' }, query: { with: ACCOUNT_RELATIONS }, signal }).then((r) => r.user),
  });
}

export function useRefreshAccount() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: queryKeys.accountUser });
}

/** A user the server returned replaces ours in the account query and in bootstrap (navbar, menus). */
function useApplyUser() {
  const client = useQueryClient();
  return ({ user }: { user: AccountUser }) => {
    const { social_profiles, tokens, ...plain } = user;
    updateBootstrap(client, (current) => (current.user ? { ...current, user: { ...current.user, ...plain } } : current));
    client.setQueryData<AccountUser>(queryKeys.accountUser, (previous) => ({
      ...previous,
      ...plain,
      social_profiles: social_profiles ?? previous?.social_profiles,
      tokens: tokens ?? previous?.tokens,
    }));
  };
}

export function useUpdateAccount() {
  const applyUser = useApplyUser();
  return useMutation({
    mutationFn: (payload: UpdateAccountBody) => api.put('users/{id}', payload, { path: { id: 'me' } }),
    onSuccess: applyUser,
  });
}

export function useUploadAvatar(userId: number) {
  const applyUser = useApplyUser();
  return useMutation({
    mutationFn: (source: { file: File } | { url: string }) => {
      if ('url' in source) return api.post('users/{id}/avatar', { url: source.url }, { path: { id: userId } });
      const body = new FormData();
      body.append('file', source.file);
      return api.postForm('users/{id}/avatar', body, { path: { id: userId } });
    },
    onSuccess: applyUser,
  });
}

export function useRemoveAvatar(userId: number) {
  const applyUser = useApplyUser();
  return useMutation({
    mutationFn: () => api.delete('users/{id}/avatar', { path: { id: userId } }),
    onSuccess: applyUser,
  });
}

export function useChangePassword() {
  return useMutation({
    mutationFn: (payload: ChangePasswordBody) => api.post('users/me/password/change', payload),
  });
}

export function useDeleteAccount() {
  return useMutation({
    mutationFn: ({ userId, currentPassword }: { userId: number; currentPassword: string }) =>
      api.delete('users/{id}', { path: { id: userId }, query: { deleteCurrentUser: 'true' }, json: { current_password: currentPassword || undefined } }),
  });
}

export function useAccessTokens() {
  return useQuery({
    queryKey: queryKeys.accessTokens,
    queryFn: ({ signal }) => api.get('access-tokens', { signal }).then((r) => r.tokens),
  });
}

export function useCreateAccessToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (payload: CreateTokenBody) => api.post('access-tokens', payload),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.accessTokens }),
  });
}

export function useDeleteAccessToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete('access-tokens/{id}', { path: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.accessTokens }),
  });
}

/** The account page asks for all its lookups in one call. */
export const ACCOUNT_VALUE_LISTS = ['countries', 'localizations', 'timezones'] as const;
