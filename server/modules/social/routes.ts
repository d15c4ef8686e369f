import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpError, render, type Message } from '../../lib/errors.js';
import { isSecure } from '../../plugins/cookies.js';
import { linesFor } from '../../plugins/request-lines.js';
import { currentUser, requireUser } from '../../plugins/guards.js';
import { loginResponse } from '../auth/schemas.js';
import { signIn, type SignInDeps } from '../auth/sign-in.js';
import type { SettingsService } from '../settings/service.js';
import { FLOW_LIFETIME_MS, OAuthFlow, OAuthFlowError, type FlowMode } from './oauth-flow.js';
import { sendPopupResult } from './popup.js';
import { SOCIAL_SERVICES, type SocialService } from './providers.js';
import type { PendingLink, SocialAccountsService } from './service.js';

const STATE_COOKIE = 'social_state';
const PENDING_COOKIE = 'social_pending';
const COOKIE_PATH = '/secure/auth/social';
const GENERIC_ERROR = 'An error occurred. Please try again later';

const serviceParams = z.object({ service: z.enum(SOCIAL_SERVICES) });

/** `/secure/auth/social/*`: sign in or connect with Google and Facebook through a popup (spec §4). */
export interface SocialRoutesDeps extends SignInDeps {
  settings: SettingsService;
  social: SocialAccountsService;
  /** The configured APP_URL: the popup posts its result to this origin only. */
  appUrl: string;
}

export const socialRoutes: FastifyPluginAsyncZod<SocialRoutesDeps> = async (app, deps) => {
  const { settings, social, bootstrap } = deps;
  const origin = new URL(deps.appUrl).origin;
  const flow = new OAuthFlow(settings, deps.appUrl);

  const keep = (request: FastifyRequest, reply: FastifyReply, name: string, sealed: string): void => {
    reply.setCookie(name, sealed, { path: COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure: isSecure(request), maxAge: FLOW_LIFETIME_MS / 1000 });
  };
  const clear = (reply: FastifyReply, name: string): void => {
    reply.clearCookie(name, { path: COOKIE_PATH });
  };

  /** ERROR in the caller's language (spec §8: the client shows the message as it comes). */
  const failPopup = async (request: FastifyRequest, reply: FastifyReply, message: Message) =>
    sendPopupResult(reply, origin, 'ERROR', { message: render(message, await linesFor(request)) });

  /** A popup never shows a JSON error: whatever stopped the flow becomes its ERROR message. */
  const popupFailure = (request: FastifyRequest, reply: FastifyReply, service: SocialService, error: unknown) => {
    if (error instanceof OAuthFlowError) {
      if (error.cause) request.log.warn({ err: error.cause, service }, 'social sign-in failed');
      return failPopup(request, reply, error.reason);
    }
    if (error instanceof HttpError) return failPopup(request, reply, error.template);
    request.log.error({ err: error, service }, 'social sign-in failed');
    return failPopup(request, reply, GENERIC_ERROR);
  };

  async function startFlow(request: FastifyRequest, reply: FastifyReply, service: SocialService, mode: FlowMode) {
    if (mode === 'login' && request.user) return sendPopupResult(reply, origin, 'ALREADY_LOGGED_IN');
    try {
      const { url, state } = await flow.begin(service, mode);
      keep(request, reply, STATE_COOKIE, state);
      return reply.redirect(url, 302);
    } catch (error) {
      return popupFailure(request, reply, service, error);
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
      const sealedState = request.cookies[STATE_COOKIE];
      clear(reply, STATE_COOKIE);
      try {
        const { mode, profile } = await flow.finish(service, sealedState, request.url);
        if (mode === 'connect') {
          if (!request.user) return failPopup(request, reply, 'Please sign in first.');
          await social.connect(request.user, service, profile);
          return sendPopupResult(reply, origin, 'SUCCESS', { bootstrapData: await bootstrap.build(request.user, null) });
        }
        if (request.user) return sendPopupResult(reply, origin, 'ALREADY_LOGGED_IN');
        const outcome = await social.login(service, profile);
        if (outcome.kind === 'error') return failPopup(request, reply, outcome.message);
        if (outcome.kind === 'needs-password') {
          const pending: PendingLink = { service, profile: { id: profile.id, name: profile.name, email: profile.email } };
          keep(request, reply, PENDING_COOKIE, await flow.seal(pending));
          return sendPopupResult(reply, origin, 'REQUEST_PASSWORD', { email: outcome.email, service });
        }
        const { bootstrapData, twoFactor, twoFactorSetup } = await signIn(deps, request, reply, outcome.proof, true);
        if (twoFactor) return sendPopupResult(reply, origin, 'TWO_FACTOR', { bootstrapData, two_factor: twoFactor });
        return sendPopupResult(reply, origin, 'SUCCESS', { bootstrapData, ...(twoFactorSetup ? { two_factor_setup: true } : {}) });
      } catch (error) {
        return popupFailure(request, reply, service, error);
      }
    },
  );

  app.post(
    '/connect',
    {
      schema: {
        tags: ['social'],
        summary: 'After REQUEST_PASSWORD: prove the existing account with its password, link the provider and sign in',
        body: z.object({ password: z.string().min(1).max(1000) }),
        response: { 200: loginResponse },
      },
    },
    async (request, reply) => {
      const pending = await flow.open<PendingLink>(request.cookies[PENDING_COOKIE]);
      const proof = await social.linkWithPassword(pending, request.body.password, request.ip);
      clear(reply, PENDING_COOKIE);
      const { bootstrapData, twoFactor, twoFactorSetup } = await signIn(deps, request, reply, proof, true);
      return { bootstrapData, ...(twoFactor ? { two_factor: twoFactor } : {}), ...(twoFactorSetup ? { two_factor_setup: true as const } : {}) };
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
