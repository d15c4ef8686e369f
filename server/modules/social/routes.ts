import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as oidc from 'openid-client';
import { z } from 'zod';
import { HttpError, render, ValidationError, type Message } from '../../lib/errors.js';
import { signValue, verifySignedValue } from '../../lib/tokens.js';
import { isSecure } from '../../plugins/cookies.js';
import { linesFor } from '../../plugins/request-lines.js';
import { currentUser, requireUser } from '../../plugins/guards.js';
import { verifyPassword } from '../auth/passwords.js';
import { loginLimits } from '../auth/throttles.js';
import { bootstrapDataResponse } from '../auth/schemas.js';
import { signIn } from '../auth/sign-in.js';
import { sendPopupResult } from './popup.js';
import { isEnabled, loadProvider, profileFromClaims, SOCIAL_SERVICES, type SocialProfile, type SocialService } from './providers.js';

const STATE_COOKIE = 'social_state';
const PENDING_COOKIE = 'social_pending';
const TEN_MINUTES = 10 * 60 * 1000;
const GENERIC_ERROR = 'An error occurred. Please try again later';

interface OAuthState {
  state: string;
  verifier: string;
  nonce: string | null;
  mode: 'login' | 'connect';
  service: SocialService;
}

interface PendingLink {
  service: SocialService;
  profile: Pick<SocialProfile, 'id' | 'name' | 'email'>;
}

const serviceParams = z.object({ service: z.enum(SOCIAL_SERVICES) });

/** `/secure/auth/social/*`: sign in or connect with Google and Facebook through a popup (spec §4). */
export const socialRoutes: FastifyPluginAsyncZod = async (app) => {
  const { settings, social, users } = app.services;
  const origin = new URL(app.services.config.appUrl).origin;
  const callbackUrl = (service: SocialService) => `${app.services.config.appUrl}/secure/auth/social/${service}/callback`;

  // Returns nothing on purpose: a Fastify reply is thenable, and awaiting it waits for the response.
  const setSigned = async (request: FastifyRequest, reply: FastifyReply, name: string, value: unknown): Promise<void> => {
    reply.setCookie(name, signValue(await settings.appKey(), JSON.stringify(value), TEN_MINUTES), {
      path: '/secure/auth/social',
      httpOnly: true,
      sameSite: 'lax',
      secure: isSecure(request),
      maxAge: TEN_MINUTES / 1000,
    });
  };
  const readSigned = async <T>(request: FastifyRequest, name: string): Promise<T | null> => {
    const raw = verifySignedValue(await settings.appKey(), request.cookies[name]);
    return raw ? (JSON.parse(raw) as T) : null;
  };
  const clear = (reply: FastifyReply, name: string): void => {
    reply.clearCookie(name, { path: '/secure/auth/social' });
  };

  /** ERROR in the caller's language (spec §8: the client shows the message as it comes). */
  const failPopup = async (request: FastifyRequest, reply: FastifyReply, message: Message) =>
    sendPopupResult(reply, origin, 'ERROR', { message: render(message, await linesFor(request)) });

  async function startFlow(request: FastifyRequest, reply: FastifyReply, service: SocialService, mode: OAuthState['mode']) {
    const all = await settings.all({ includePrivate: true });
    if (!isEnabled(all, service)) return failPopup(request, reply, 'This sign-in method is not enabled.');
    if (mode === 'login' && request.user) return sendPopupResult(reply, origin, 'ALREADY_LOGGED_IN');
    try {
      const provider = await loadProvider(all, service);
      const verifier = oidc.randomPKCECodeVerifier();
      const flow: OAuthState = {
        state: oidc.randomState(),
        verifier,
        nonce: provider.oidc ? oidc.randomNonce() : null,
        mode,
        service,
      };
      const url = oidc.buildAuthorizationUrl(provider.config, {
        redirect_uri: callbackUrl(service),
        scope: provider.scope,
        state: flow.state,
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        ...(flow.nonce ? { nonce: flow.nonce } : {}),
      });
      await setSigned(request, reply, STATE_COOKIE, flow);
      return reply.redirect(url.href, 302);
    } catch (error) {
      request.log.warn({ err: error, service }, 'social sign-in could not start');
      return failPopup(request, reply, GENERIC_ERROR);
    }
  }

  app.get('/:service/login', { schema: { tags: ['social'], summary: 'Open in a popup: sign in with a provider', params: serviceParams } }, (request, reply) =>
    startFlow(request, reply, request.params.service, 'login'),
  );

  app.get(
    '/:service/connect',
    { schema: { tags: ['social'], summary: 'Open in a popup: connect a provider to your account', params: serviceParams } },
    (request, reply) => {
      if (!request.user) return failPopup(request, reply, 'Please sign in first.');
      return startFlow(request, reply, request.params.service, 'connect');
    },
  );

  app.get(
    '/:service/callback',
    { schema: { tags: ['social'], summary: 'Where the provider sends the popup back', params: serviceParams } },
    async (request, reply) => {
      const service = request.params.service;
      const flow = await readSigned<OAuthState>(request, STATE_COOKIE);
      clear(reply, STATE_COOKIE);
      const query = request.query as Record<string, string | undefined>;
      // A callback this browser did not start (or a replayed one) is refused before anything is exchanged.
      if (!flow || flow.service !== service || !query.state || query.state !== flow.state) {
        return failPopup(request, reply, 'This sign-in attempt is invalid or has expired. Please try again.');
      }
      if (query.error) return failPopup(request, reply, GENERIC_ERROR);

      let profile: SocialProfile;
      try {
        const provider = await loadProvider(await settings.all({ includePrivate: true }), service);
        const currentUrl = new URL(request.url, app.services.config.appUrl);
        const tokens = await oidc.authorizationCodeGrant(provider.config, currentUrl, {
          pkceCodeVerifier: flow.verifier,
          expectedState: flow.state,
          ...(flow.nonce ? { expectedNonce: flow.nonce } : {}),
          idTokenExpected: provider.oidc,
        });
        if (provider.oidc) {
          profile = profileFromClaims({ ...(tokens.claims() ?? {}) });
        } else {
          const response = await oidc.fetchProtectedResource(provider.config, tokens.access_token, provider.userinfoUrl!, 'GET');
          profile = profileFromClaims((await response.json()) as Record<string, unknown>);
        }
      } catch (error) {
        request.log.warn({ err: error, service }, 'social sign-in failed');
        return failPopup(request, reply, GENERIC_ERROR);
      }

      if (flow.mode === 'connect') {
        if (!request.user) return failPopup(request, reply, 'Please sign in first.');
        try {
          await social.connect(request.user, service, profile);
        } catch (error) {
          return failPopup(request, reply, error instanceof HttpError ? error.template : GENERIC_ERROR);
        }
        const bootstrapData = await app.services.bootstrap.build(request.user, null);
        return sendPopupResult(reply, origin, 'SUCCESS', { bootstrapData });
      }

      if (request.user) return sendPopupResult(reply, origin, 'ALREADY_LOGGED_IN');
      const outcome = await social.login(service, profile);
      if (outcome.kind === 'error') return failPopup(request, reply, outcome.message);
      if (outcome.kind === 'needs-password') {
        await setSigned(request, reply, PENDING_COOKIE, {
          service,
          profile: { id: profile.id, name: profile.name, email: profile.email },
        } satisfies PendingLink);
        return sendPopupResult(reply, origin, 'REQUEST_PASSWORD', { email: outcome.email, service });
      }
      const bootstrapData = await signIn(app.services, request, reply, outcome.userId, true);
      return sendPopupResult(reply, origin, 'SUCCESS', { bootstrapData });
    },
  );

  app.post(
    '/connect',
    {
      schema: {
        tags: ['social'],
        summary: 'After REQUEST_PASSWORD: prove the existing account with its password, link the provider and sign in',
        body: z.object({ password: z.string().min(1).max(1000) }),
        response: { 200: bootstrapDataResponse },
      },
    },
    async (request, reply) => {
      const pending = await readSigned<PendingLink>(request, PENDING_COOKIE);
      if (!pending?.profile.email) throw ValidationError.field('password', 'This sign-in attempt has expired. Please try again.');
      const email = pending.profile.email;
      // The same throttle as signing in with this address: this prompt is a password check too.
      const user = await app.services.passwordChecks.check(loginLimits(email, request.ip), async () => {
        const found = await users.findByEmail(email);
        if (!found || !(await verifyPassword(found.password, request.body.password))) {
          throw ValidationError.field('password', 'The password is incorrect.');
        }
        return found;
      });
      await social.connect(user, pending.service, pending.profile);
      clear(reply, PENDING_COOKIE);
      return { bootstrapData: await signIn(app.services, request, reply, user.id, true) };
    },
  );

  app.post(
    '/:service/disconnect',
    {
      onRequest: requireUser,
      schema: { tags: ['social'], summary: 'Disconnect a provider', params: serviceParams, response: { 200: z.object({ message: z.string() }) } },
    },
    async (request) => {
      await social.disconnect(currentUser(request), request.params.service);
      return { message: 'Disconnected' };
    },
  );
};
