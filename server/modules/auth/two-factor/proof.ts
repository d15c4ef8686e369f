import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { SecondFactorAnswer } from './service.js';

/** The cookie carrying a passkey ceremony's token, from its options to its answer. */
export const WEBAUTHN_COOKIE = 'drive_webauthn';

/**
 * A second factor offered as proof of who is asking (issue 36, item 5): an
 * authenticator code, a recovery code, or a passkey assertion for the ceremony
 * POST /api/v1/user/two-factor/passkey-options started.
 */
export const secondFactorProof = z
  .discriminatedUnion('method', [
    z.object({ method: z.literal('totp'), code: z.string().min(1).max(64) }),
    z.object({ method: z.literal('recovery_code'), code: z.string().min(1).max(64) }),
    z.object({ method: z.literal('passkey'), response: z.record(z.string(), z.unknown()) }),
  ])
  .optional()
  .describe('Instead of the password, for an account without one: a code from the authenticator app, a recovery code, or a passkey assertion');

export type SecondFactorProofBody = z.infer<typeof secondFactorProof>;

/** The answer a request's `second_factor` stands for; a passkey's ceremony is the cookie its options set. */
export function secondFactorAnswerOf(request: FastifyRequest, body: SecondFactorProofBody): SecondFactorAnswer | undefined {
  if (!body) return undefined;
  if (body.method !== 'passkey') return { method: body.method, code: body.code };
  // The browser's JSON as it came: @simplewebauthn/server checks every field it reads.
  return { method: 'passkey', token: request.cookies[WEBAUTHN_COOKIE] ?? '', response: body.response as unknown as AuthenticationResponseJSON };
}
