import type { FastifyReply, FastifyRequest } from 'fastify';
import { setSessionCookie } from '../../plugins/cookies.js';
import { rotateXsrfForSession } from '../../plugins/xsrf.js';
import type { BootstrapService } from '../bootstrap/service.js';
import type { UsersRepository } from '../users/repository.js';
import type { SessionsService } from './sessions.js';
import { LOCALE_COOKIE } from '../localizations/locale-cookie.js';
import { REMEMBER_LIFETIME_MS } from './sessions.js';

/**
 * Starts a fresh session for the user — ending whatever session the browser
 * had, so a session id is never carried across a sign-in — and answers the
 * bootstrap data the app replaces its own with.
 */
/** What starting a session needs, and no more. */
export interface SignInDeps {
  sessions: Pick<SessionsService, 'start' | 'end'>;
  users: Pick<UsersRepository, 'findById' | 'withAccess'>;
  bootstrap: Pick<BootstrapService, 'build'>;
}

export async function signIn(services: SignInDeps, request: FastifyRequest, reply: FastifyReply, userId: number, remember: boolean) {
  if (request.sessionToken) await services.sessions.end(request.sessionToken);
  const session = await services.sessions.start(userId, {
    ip: request.ip,
    userAgent: request.headers['user-agent'] ?? null,
    remember,
  });
  setSessionCookie(request, reply, session.token, remember ? REMEMBER_LIFETIME_MS / 1000 : null);
  await rotateXsrfForSession(request, reply, session.token);
  const user = await services.users.findById(userId);
  return services.bootstrap.build(user ? await services.users.withAccess(user) : null, request.cookies[LOCALE_COOKIE] ?? null);
}
