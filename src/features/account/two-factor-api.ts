import { startRegistration, type PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DisableTwoFactorBody, RecoveryCodesResponse, SecondFactorAnswerBody, TotpSetupResponse, TwoFactorStatus } from '../../api/api-types';
import { api } from '../../api/http';
import { queryKeys } from '../../api/query-keys';

// Account settings → Security (issue 36): the account's own second factors.

export function useTwoFactorStatus() {
  return useQuery({
    queryKey: queryKeys.twoFactor,
    queryFn: ({ signal }) => api.get('user/two-factor', { signal }) as Promise<TwoFactorStatus>,
  });
}

function useRefresh() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: queryKeys.twoFactor });
}

export function useStartTotpSetup() {
  return useMutation({ mutationFn: () => api.post('user/two-factor/totp') as Promise<TotpSetupResponse> });
}

export function useConfirmTotp() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (code: string) => api.post('user/two-factor/totp/confirm', { code }) as Promise<RecoveryCodesResponse>,
    onSuccess: refresh,
  });
}

export function useRegenerateRecoveryCodes() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (answer: Required<SecondFactorAnswerBody>) => api.post('user/two-factor/recovery-codes', answer) as Promise<RecoveryCodesResponse>,
    onSuccess: refresh,
  });
}

export function useDisableTwoFactor() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (body: DisableTwoFactorBody) => api.delete('user/two-factor', { json: body }),
    onSuccess: refresh,
  });
}

export function usePasskeys() {
  return useQuery({
    queryKey: queryKeys.passkeys,
    queryFn: ({ signal }) => api.get('user/passkeys', { signal }).then((r) => r.passkeys),
  });
}

/** Creates a passkey in the browser (its own prompt: PIN, fingerprint) and registers it under a name. */
export function useAddPasskey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) => {
      const { options } = await api.post('user/passkeys/options');
      const response = await startRegistration({ optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON });
      return api.post('user/passkeys', { name, response: response as unknown as Record<string, unknown> });
    },
    onSuccess: () => Promise.all([client.invalidateQueries({ queryKey: queryKeys.passkeys }), client.invalidateQueries({ queryKey: queryKeys.twoFactor })]),
  });
}

export function useRenamePasskey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) => api.put('user/passkeys/{id}', { name }, { path: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.passkeys }),
  });
}

export function useRemovePasskey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete('user/passkeys/{id}', { path: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.passkeys }),
  });
}
