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
