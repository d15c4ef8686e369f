import { startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { PERSONAL_WORKSPACE, setActiveWorkspace } from '../../api/active-workspace';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/http';
import type { BootstrapResponse, LoginBody, RegisterResponse, ResetPasswordBody, SecondStepBody, SocialService } from '../../api/api-types';
import type { Bootstrap } from '../../api/bootstrap-types';
import { queryKeys } from '../../api/query-keys';
import { setBootstrap } from '../bootstrap/store';
import type { RegisterPayload } from './registration';

// Every auth call of spec §7, as TanStack Query mutations over the ky client.
// Calls that sign someone in or out write the returned bootstrap data through
// setBootstrap, so guards and menus follow at once.

export type LoginPayload = Required<LoginBody>;

export function useLogin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (payload: LoginPayload) => api.post('auth/login', payload) as Promise<BootstrapResponse>,
    onSuccess: ({ bootstrapData }) => setBootstrap(client, bootstrapData),
  });
}

/** A sign-in's second step (an authenticator code or a recovery code), after a login answered `two_factor`. */
export function useSecondStep() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (payload: Required<SecondStepBody>) => api.post('auth/two-factor', payload) as Promise<BootstrapResponse>,
    onSuccess: ({ bootstrapData }) => setBootstrap(client, bootstrapData),
  });
}

/**
 * A passkey sign-in: during a sign-in's second step the server asks for one of
 * that account's passkeys, otherwise any passkey signs in without a password.
 */
export function usePasskeySignIn() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ rememberDevice }: { rememberDevice: boolean }) => {
      const { options } = await api.post('auth/passkey/options');
      const response = await startAuthentication({ optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON });
      return api.post('auth/passkey', {
        response: response as unknown as Record<string, unknown>,
        remember_device: rememberDevice,
      }) as Promise<BootstrapResponse>;
    },
    onSuccess: ({ bootstrapData }) => setBootstrap(client, bootstrapData),
  });
}

export function useRegister() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (payload: RegisterPayload) => api.post('auth/register', payload) as Promise<RegisterResponse>,
    onSuccess: ({ bootstrapData }) => setBootstrap(client, bootstrapData),
  });
}

/** Logout: the cache is cleared before the guest bootstrap is stored (spec §4). */
export function useLogoutMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post('auth/logout') as Promise<BootstrapResponse>,
    onSuccess: async ({ bootstrapData }) => {
      // Issue 39: what the user kept offline leaves the device with them, before the next person can sign in here.
      const leaving = client.getQueryData<Bootstrap>(queryKeys.bootstrap)?.user?.id;
      // The session is over either way: a wipe that fails must not keep the user signed in on this page.
      // Loaded here, not with the module: the sign-in pages use this file too, and the pins client brings Dexie and the queue engines.
      if (leaving !== undefined)
        await import('../../offline/pins/client')
          .then(({ pinsClient }) => pinsClient.wipe(String(leaving)))
          .catch((error: unknown) => console.error('offline files wipe failed', error));
      client.clear();
      // Spec §4 "Active workspace": reset to 0 on teardown, so the next person starts in their own space.
      setActiveWorkspace(PERSONAL_WORKSPACE);
      setBootstrap(client, bootstrapData);
    },
  });
}

export function useForgotPassword() {
  return useMutation({
    mutationFn: (payload: { email: string }) => api.post('auth/forgot-password', payload),
  });
}

export function useResetPassword() {
  return useMutation({
    mutationFn: (payload: ResetPasswordBody) => api.post('auth/reset-password', payload),
  });
}

export function useResendVerification() {
  return useMutation({
    mutationFn: (email: string | undefined) => api.post('auth/email/verification-notification', email ? { email } : {}),
  });
}

/** After REQUEST_PASSWORD: prove the existing account to link the provider. */
export function useSocialConnect() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (payload: { password: string }) => api.post('secure/auth/social/connect', payload) as Promise<BootstrapResponse>,
    onSuccess: ({ bootstrapData }) => setBootstrap(client, bootstrapData),
  });
}

export function useSocialDisconnect() {
  return useMutation({
    mutationFn: (service: SocialService) => api.post('secure/auth/social/{service}/disconnect', undefined, { path: { service } }),
  });
}

/** The human check's server half: true when the token proves a human. */
export async function verifyHumanToken(token: string): Promise<boolean> {
  const { success } = await api.post('recaptcha/verify', { token });
  return success;
}
