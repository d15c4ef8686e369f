import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Forbidden, Unauthenticated, ValidationError } from '../../../lib/errors.js';
import { API_PREFIX, moduleRoutes, type ModuleRoutes } from '../../../lib/routes.js';
import { currentUser, requireUser } from '../../../plugins/guards.js';
import type { BootstrapService } from '../../bootstrap/service.js';
import type { UsersRepository } from '../../users/repository.js';
import { bootstrapDataResponse } from '../schemas.js';
import type { AuthService } from '../service.js';
import { CHALLENGE_COOKIE, clearChallengeCookie, rememberDeviceCookie, startBrowserSession } from '../sign-in.js';
import { loginResponse } from '../schemas.js';
import { SIGN_IN_EXPIRED, type SecondFactorAnswer, type TwoFactorService } from './service.js';
import { PASSKEY_NOT_VERIFIED, type PasskeysService } from './passkeys.js';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { isSecure } from '../../../plugins/cookies.js';
import { signIn } from '../sign-in.js';
import { WEBAUTHN_COOKIE } from './proof.js';

export interface TwoFactorRoutesDeps {
  twoFactor: TwoFactorService;
  auth: Pick<AuthService, 'completeSecondStep' | 'verifyPassword' | 'startSession'>;
  passkeys: PasskeysService;
  users: Pick<UsersRepository, 'withAccess'>;
  bootstrap: Pick<BootstrapService, 'build'>;
}

export const ONLY_IN_BROWSER = 'Two-factor sign-in is changed in the browser, not with an access token.';
export const NOT_WHILE_SIGNED_IN_AS = 'You cannot change two-factor sign-in while signed in as someone else.';
export const PASSWORD_NEEDED = 'Enter your current password to confirm this change.';

const answerBody = {
  method: z.enum(['totp', 'recovery_code']).default('totp'),
  code: z.string().min(1).max(64),
};
const toAnswer = (body: { method: 'totp' | 'recovery_code'; code: string }): SecondFactorAnswer => ({ method: body.method, code: body.code });
const messageResponse = z.object({ message: z.string() });
const recoveryCodesResponse = z.object({ recovery_codes: z.array(z.string()) });
const statusResponse = z.object({
  totp: z.boolean(),
  recovery_codes_left: z.number().int(),
  has_password: z.boolean().describe('Turning two-factor off asks for the password only when the account has one (not a social-only account)'),
});

/**
 * A second factor is the account's own, set up in its own browser session:
 * a token (it is already a second secret, and changing factors with one would
 * let it outlive them) and an admin's "sign in as" are refused.
 */
async function ownSessionOnly(request: FastifyRequest): Promise<void> {
  if (request.authVia !== 'session') throw Forbidden(ONLY_IN_BROWSER);
  if (request.impersonatorId !== null) throw Forbidden(NOT_WHILE_SIGNED_IN_AS);
}

/** `POST /auth/two-factor`: the sign-in's second step, with the challenge cookie the first step set. */
const secondStepRoutes: FastifyPluginAsyncZod<TwoFactorRoutesDeps> = async (app, deps) => {
  app.post(
    '/two-factor',
    {
      schema: {
        tags: ['auth'],
        summary: "A sign-in's second step: an authenticator code or a recovery code; remember_device skips it for 30 days",
        body: z.object({ ...answerBody, remember_device: z.boolean().default(false) }),
        response: { 200: bootstrapDataResponse },
      },
    },
    async (request: FastifyRequest<{ Body: { method: 'totp' | 'recovery_code'; code: string; remember_device: boolean } }>, reply: FastifyReply) => {
      const token = request.cookies[CHALLENGE_COOKIE];
      if (!token) throw Unauthenticated(SIGN_IN_EXPIRED);
      const { user, session, device } = await deps.auth.completeSecondStep(token, toAnswer(request.body), {
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
        rememberDevice: request.body.remember_device,
      });
      clearChallengeCookie(request, reply);
      if (device) rememberDeviceCookie(request, reply, device.token);
      return { bootstrapData: await startBrowserSession(deps, request, reply, user, session) };
    },
  );

  app.post(
    '/passkey/options',
    {
      schema: {
        tags: ['auth'],
        summary: "A passkey ceremony's options: the second step's user's passkeys during a sign-in, else any discoverable passkey",
        response: { 200: z.object({ options: z.record(z.string(), z.unknown()) }) },
      },
    },
    async (request, reply) => {
      const pending = request.cookies[CHALLENGE_COOKIE];
      const challenge = pending ? await deps.twoFactor.openChallenge(pending) : null;
      const { token, options } = await deps.passkeys.authenticationOptions(challenge?.userId ?? null);
      reply.setCookie(WEBAUTHN_COOKIE, token, ceremonyCookie(request));
      return { options: { ...options } };
    },
  );

  app.post(
    '/passkey',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign in with a passkey (user verification required): the second step of a sign-in, or a sign-in without a password',
        body: z.object({ response: z.record(z.string(), z.unknown()), remember_device: z.boolean().default(false) }),
        response: { 200: loginResponse },
      },
    },
    async (request: FastifyRequest<{ Body: { response: Record<string, unknown>; remember_device: boolean } }>, reply: FastifyReply) => {
      const ceremony = request.cookies[WEBAUTHN_COOKIE];
      if (!ceremony) throw Unauthenticated(SIGN_IN_EXPIRED);
      reply.clearCookie(WEBAUTHN_COOKIE, { path: '/auth', httpOnly: true, sameSite: 'lax', secure: isSecure(request) });
      // The browser's JSON as it came: @simplewebauthn/server checks every field it reads.
      const response = request.body.response as unknown as AuthenticationResponseJSON;
      const pending = request.cookies[CHALLENGE_COOKIE];
      if (pending) {
        const { user, session, device } = await deps.auth.completeSecondStep(
          pending,
          { method: 'passkey', token: ceremony, response },
          { ip: request.ip, userAgent: request.headers['user-agent'] ?? null, rememberDevice: request.body.remember_device },
        );
        clearChallengeCookie(request, reply);
        if (device) rememberDeviceCookie(request, reply, device.token);
        return { bootstrapData: await startBrowserSession(deps, request, reply, user, session) };
      }
      const userId = await deps.passkeys.verifyAssertion(ceremony, response, null);
      const { bootstrapData } = await signIn(deps, request, reply, { kind: 'passkey', userId }, true);
      return { bootstrapData };
    },
  );
};

const ceremonyCookie = (request: FastifyRequest) => ({ path: '/', httpOnly: true, sameSite: 'lax' as const, secure: isSecure(request), maxAge: 300 });

/** `/api/v1/user/two-factor*`: the account's own second factors (Account settings → Security). */
const accountRoutes: FastifyPluginAsyncZod<TwoFactorRoutesDeps> = async (app, deps) => {
  const { twoFactor } = deps;
  app.addHook('onRequest', requireUser);
  app.addHook('onRequest', ownSessionOnly);

  app.get(
    '/user/two-factor',
    { schema: { tags: ['two-factor'], summary: 'Which second factors the account has', response: { 200: statusResponse } } },
    async (request) => {
      const user = currentUser(request);
      return { ...(await twoFactor.status(user.id)), has_password: !!user.password };
    },
  );

  app.post(
    '/user/two-factor/passkey-options',
    {
      schema: {
        tags: ['two-factor'],
        summary: 'Options for a passkey assertion that confirms an account change (an account without a password: second_factor)',
        response: { 200: z.object({ options: z.record(z.string(), z.unknown()) }) },
      },
    },
    async (request, reply) => {
      const { token, options } = await deps.passkeys.authenticationOptions(currentUser(request).id);
      reply.setCookie(WEBAUTHN_COOKIE, token, ceremonyCookie(request));
      return { options: { ...options } };
    },
  );

  app.post(
    '/user/two-factor/totp',
    {
      schema: {
        tags: ['two-factor'],
        summary: 'Start setting up an authenticator app: its secret and otpauth URL (for a QR code), until confirmed',
        response: { 200: z.object({ secret: z.string(), otpauth_url: z.string() }) },
      },
    },
    async (request) => twoFactor.startTotpSetup(currentUser(request)),
  );

  app.post(
    '/user/two-factor/totp/confirm',
    {
      schema: {
        tags: ['two-factor'],
        summary: 'Confirm the app with its first code; answers ten recovery codes, shown only here',
        body: z.object({ code: z.string().min(1).max(16) }),
        response: { 200: recoveryCodesResponse },
      },
    },
    async (request) => twoFactor.confirmTotp(currentUser(request), request.body.code, request.ip),
  );

  app.post(
    '/user/two-factor/recovery-codes',
    {
      schema: {
        tags: ['two-factor'],
        summary: 'Replace the recovery codes (the old ones stop working); needs a current code',
        body: z.object(answerBody),
        response: { 200: recoveryCodesResponse },
      },
    },
    async (request) => twoFactor.regenerateRecoveryCodes(currentUser(request), toAnswer(request.body), request.ip),
  );

  app.delete(
    '/user/two-factor',
    {
      schema: {
        tags: ['two-factor'],
        summary: 'Turn two-factor sign-in off: the password (if the account has one) and a code',
        body: z.object({ ...answerBody, current_password: z.string().max(1000).optional() }),
        response: { 200: messageResponse },
      },
    },
    async (request) => {
      const user = currentUser(request);
      // An account that signs in only through a provider has no password: its code is the proof.
      if (user.password) {
        if (!request.body.current_password) throw ValidationError.field('current_password', PASSWORD_NEEDED);
        await deps.auth.verifyPassword({ purpose: 'confirm', user }, request.body.current_password, request.ip);
      }
      await twoFactor.disable(user, toAnswer(request.body), request.ip);
      return { message: 'Two-factor sign-in is off.' };
    },
  );
};

const passkeyParams = z.object({ id: z.string().min(1).max(255) });
const passkeySchema = z.object({ id: z.string(), name: z.string(), created_at: z.string(), last_used_at: z.string().nullable() });

/** `/api/v1/user/passkeys*`: register several, name and remove them. */
const passkeyRoutes: FastifyPluginAsyncZod<TwoFactorRoutesDeps> = async (app, deps) => {
  const { passkeys } = deps;
  app.addHook('onRequest', requireUser);
  app.addHook('onRequest', ownSessionOnly);

  app.get(
    '/user/passkeys',
    { schema: { tags: ['two-factor'], summary: 'Your passkeys', response: { 200: z.object({ passkeys: z.array(passkeySchema) }) } } },
    async (request) => ({ passkeys: await passkeys.list(currentUser(request).id) }),
  );

  app.post(
    '/user/passkeys/options',
    {
      schema: {
        tags: ['two-factor'],
        summary: 'Options to create a passkey (discoverable, user verification required)',
        response: { 200: z.object({ options: z.record(z.string(), z.unknown()) }) },
      },
    },
    async (request, reply) => {
      const { token, options } = await passkeys.registrationOptions(currentUser(request));
      reply.setCookie(WEBAUTHN_COOKIE, token, ceremonyCookie(request));
      return { options: { ...options } };
    },
  );

  app.post(
    '/user/passkeys',
    {
      schema: {
        tags: ['two-factor'],
        summary: 'Register the passkey the browser created, with a name',
        body: z.object({ name: z.string().trim().min(1).max(100), response: z.record(z.string(), z.unknown()) }),
        response: { 200: z.object({ passkey: passkeySchema }) },
      },
    },
    async (request, reply) => {
      const ceremony = request.cookies[WEBAUTHN_COOKIE];
      if (!ceremony) throw ValidationError.field('passkey', PASSKEY_NOT_VERIFIED);
      reply.clearCookie(WEBAUTHN_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: isSecure(request) });
      const response = request.body.response as unknown as RegistrationResponseJSON;
      return { passkey: await passkeys.register(currentUser(request), ceremony, request.body.name, response) };
    },
  );

  app.put(
    '/user/passkeys/:id',
    {
      schema: {
        tags: ['two-factor'],
        summary: 'Rename a passkey',
        params: passkeyParams,
        body: z.object({ name: z.string().trim().min(1).max(100) }),
        response: { 200: messageResponse },
      },
    },
    async (request) => {
      await passkeys.rename(currentUser(request).id, request.params.id, request.body.name);
      return { message: 'Passkey renamed' };
    },
  );

  app.delete(
    '/user/passkeys/:id',
    { schema: { tags: ['two-factor'], summary: 'Remove a passkey', params: passkeyParams, response: { 200: messageResponse } } },
    async (request) => {
      await passkeys.remove(currentUser(request).id, request.params.id);
      return { message: 'Passkey removed' };
    },
  );
};

/** The module's routes, for the composition root's list. */
export const twoFactorRoutes = (deps: TwoFactorRoutesDeps): ModuleRoutes[] => [
  moduleRoutes('/auth', secondStepRoutes, deps),
  moduleRoutes(API_PREFIX, accountRoutes, deps),
  moduleRoutes(API_PREFIX, passkeyRoutes, deps),
];
