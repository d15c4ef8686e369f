import type { FastifyReply, FastifyRequest } from 'fastify';
import { setSessionCookie } from '../../plugins/cookies.js';
import { rotateXsrfForSession } from '../../plugins/xsrf.js';
import type { BootstrapService } from '../bootstrap/service.js';
import type { UsersRepository } from '../users/repository.js';
import { LOCALE_COOKIE } from '../localizations/locale-cookie.js';
import type { AuthService, SessionProof } from './service.js';
import { REMEMBER_LIFETIME_MS } from './sessions.js';

/** What signing a browser in needs, and no more. */
export interface SignInDeps {
  auth: Pick<AuthService, 'startSession'>;
  users: Pick<UsersRepository, 'withAccess'>;
  bootstrap: Pick<BootstrapService, 'build'>;
}

/** "Sign in as" keeps the admin's own session aside, so its cookies are the admin area's (admin/users/routes.ts). */
export type BrowserProof = Exclude<SessionProof, { kind: 'impersonation' }>;

/**
 * The HTTP side of AuthService.startSession: the session and XSRF cookies,
 * and the bootstrap data the app replaces its own with.
 */
export async function signIn(deps: SignInDeps, request: FastifyRequest, reply: FastifyReply, proof: BrowserProof, remember: boolean) {
  const { user, session } = await deps.auth.startSession(proof, {
    ip: request.ip,
    userAgent: request.headers['user-agent'] ?? null,
    remember,
    current: request.sessionToken ?? null,
  });
  setSessionCookie(request, reply, session.token, remember ? REMEMBER_LIFETIME_MS / 1000 : null);
  await rotateXsrfForSession(request, reply, session.token);
  return deps.bootstrap.build(await deps.users.withAccess(user), request.cookies[LOCALE_COOKIE] ?? null);
}
