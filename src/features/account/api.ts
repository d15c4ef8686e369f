import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AccessTokensResponse,
  AccountUser,
  AccountUserResponse,
  AvatarResponse,
  ChangePasswordBody,
  CreateTokenBody,
  CreateTokenResponse,
  MessageResponse,
  UpdateAccountBody,
} from '../../api/api-types';
import { api } from '../../api/http';
import { queryKeys } from '../../api/query-keys';
import { updateBootstrap } from '../bootstrap/store';

// Account settings calls (spec §7 users/*, access-tokens). The current user
// with roles, social profiles and tokens is one query; writes refresh it.

export const ACCOUNT_RELATIONS = ['roles', 'social_profiles', 'tokens'] as const;

export function useAccountUser() {
  return useQuery({
    queryKey: queryKeys.accountUser,
    queryFn: ({ signal }) => api.get<AccountUserResponse>('users/me', { with: [...ACCOUNT_RELATIONS] }, signal).then((r) => r.user),
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
    mutationFn: (payload: UpdateAccountBody) => api.put<AccountUserResponse>('users/me', payload),
    onSuccess: applyUser,
  });
}

export function useUploadAvatar(userId: number) {
  const applyUser = useApplyUser();
  return useMutation({
    mutationFn: (source: { file: File } | { url: string }) => {
      if ('url' in source) return api.post<AvatarResponse>(`users/${userId}/avatar`, { url: source.url });
      const body = new FormData();
      body.append('file', source.file);
      return api.request<AvatarResponse>('POST', `users/${userId}/avatar`, { body });
    },
    onSuccess: applyUser,
  });
}

export function useRemoveAvatar(userId: number) {
  const applyUser = useApplyUser();
  return useMutation({
    mutationFn: () => api.delete<AccountUserResponse>(`users/${userId}/avatar`),
    onSuccess: applyUser,
  });
}

export function useChangePassword() {
  return useMutation({
    mutationFn: (payload: ChangePasswordBody) => api.post<MessageResponse>('users/me/password/change', payload),
  });
}

export function useDeleteAccount() {
  return useMutation({
    mutationFn: (userId: number) => api.delete<MessageResponse>(`users/${userId}`, { deleteCurrentUser: 'true' }),
  });
}

export function useAccessTokens() {
  return useQuery({
    queryKey: queryKeys.accessTokens,
    queryFn: ({ signal }) => api.get<AccessTokensResponse>('access-tokens', undefined, signal).then((r) => r.tokens),
  });
}

export function useCreateAccessToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (payload: CreateTokenBody) => api.post<CreateTokenResponse>('access-tokens', payload),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.accessTokens }),
  });
}

export function useDeleteAccessToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<MessageResponse>(`access-tokens/${id}`),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.accessTokens }),
  });
}

/** The account page asks for all its lookups in one call. */
export const ACCOUNT_VALUE_LISTS = ['countries', 'localizations', 'timezones'] as const;
