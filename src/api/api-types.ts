import type { Bootstrap } from './bootstrap-types';
import type { paths } from './schema';

// Request and response bodies of the generated OpenAPI paths, so feature
// api.ts files name a call once (`JsonResponse<'/auth/login', 'post'>`).
type Method = 'get' | 'post' | 'put' | 'delete';

type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;

export type JsonResponse<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { responses: { 200: { content: { 'application/json': infer R } } } } ? R : never;

export type JsonBody<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

/** Answers carrying bootstrap data use the app's narrowed Bootstrap type. */
export type WithBootstrap<T> = T extends { bootstrapData: unknown } ? Omit<T, 'bootstrapData'> & { bootstrapData: Bootstrap } : T;

export type BootstrapResponse = WithBootstrap<JsonResponse<'/auth/login', 'post'>>;
export type RegisterResponse = WithBootstrap<JsonResponse<'/auth/register', 'post'>>;
export type MessageResponse = JsonResponse<'/auth/forgot-password', 'post'>;
export type ValueListsResponse = JsonResponse<'/api/v1/value-lists/{names}', 'get'>;
export type AccountUserResponse = JsonResponse<'/api/v1/users/{id}', 'get'>;
export type AccountUser = AccountUserResponse['user'];
export type SocialProfile = NonNullable<AccountUser['social_profiles']>[number];
export type UpdateAccountBody = JsonBody<'/api/v1/users/{id}', 'put'>;
export type AvatarResponse = JsonResponse<'/api/v1/users/{id}/avatar', 'post'>;
export type ChangePasswordBody = JsonBody<'/api/v1/users/me/password/change', 'post'>;
export type AccessTokensResponse = JsonResponse<'/api/v1/access-tokens', 'get'>;
export type CreateTokenBody = JsonBody<'/api/v1/access-tokens', 'post'>;
export type CreateTokenResponse = JsonResponse<'/api/v1/access-tokens', 'post'>;
export type ResetPasswordBody = JsonBody<'/auth/reset-password', 'post'>;
export type LoginBody = JsonBody<'/auth/login', 'post'>;
export type RegisterFixedBody = JsonBody<'/auth/register', 'post'>;
export type SocialService = 'google' | 'facebook';
export type SecondStepBody = JsonBody<'/auth/two-factor', 'post'>;
export type TwoFactorStatus = JsonResponse<'/api/v1/user/two-factor', 'get'>;
export type TotpSetupResponse = JsonResponse<'/api/v1/user/two-factor/totp', 'post'>;
export type RecoveryCodesResponse = JsonResponse<'/api/v1/user/two-factor/totp/confirm', 'post'>;
export type SecondFactorAnswerBody = JsonBody<'/api/v1/user/two-factor/recovery-codes', 'post'>;
export type DisableTwoFactorBody = JsonBody<'/api/v1/user/two-factor', 'delete'>;
export type OfflineManifestResponse = JsonResponse<'/api/v1/file-entries/{id}/offline-manifest', 'get'>;
