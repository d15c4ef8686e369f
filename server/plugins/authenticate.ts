import type { FastifyRequest } from 'fastify';
import { guestActor, userActor } from '../modules/access/actor.js';
import type { Permission } from '../modules/permissions/policy.js';
import type { TokenScope } from '../modules/auth/token-scopes.js';
import type { UserWithAccess } from '../modules/users/repository.js';
import { SESSION_COOKIE } from './cookies.js';

/** What authentication needs, and no more. */
export interface AuthenticateDeps {
  accessTokens: { resolve(token: string): Promise<{ userId: number; scopes: TokenScope[] } | null> };
  sessions: { resolve(token: string): Promise<{ userId: number; startedAt: string; impersonatorId: number | null } | null> };
  users: {
    findWithAccess(id: number): Promise<UserWithAccess | null>;
    guestRole(): Promise<{ permissions: Permission[] }>;
  };
}

/**
 * Who is calling: a personal access token (`Authorization: Bearer`) or the
 * session cookie, else a guest. An invalid bearer token is treated as no
 * identity at all rather than falling back to the cookie, so API clients see
 * their mistake. The actor is built here once per request.
 */
export async function authenticate(request: FastifyRequest, deps: AuthenticateDeps): Promise<void> {
  request.user = null;
  request.authVia = null;
  request.sessionToken = null;
  request.tokenScopes = null;
  request.signedInAt = null;
  request.impersonatorId = null;
  const user = await identify(request, deps);
  request.actor = user ? userActor(user.id, user.permissions) : guestActor((await deps.users.guestRole()).permissions);
}

async function identify(request: FastifyRequest, deps: AuthenticateDeps): Promise<UserWithAccess | null> {
  const header = request.headers.authorization;
  if (header && /^bearer\s+/i.test(header)) {
    const token = await deps.accessTokens.resolve(header.replace(/^bearer\s+/i, '').trim());
    if (!token) return null;
    request.tokenScopes = token.scopes;
    return attach(request, deps, token.userId, 'token');
  }

  const token = request.cookies[SESSION_COOKIE];
  if (!token) return null;
  const session = await deps.sessions.resolve(token);
  if (!session) return null;
  request.sessionToken = token;
  request.signedInAt = session.startedAt;
  request.impersonatorId = session.impersonatorId;
  return attach(request, deps, session.userId, 'session');
}

async function attach(request: FastifyRequest, deps: AuthenticateDeps, userId: number, via: 'session' | 'token') {
  const user = await deps.users.findWithAccess(userId);
  // A suspended account's sessions and tokens are refused at once, whatever is still stored.
  if (!user || user.suspended_at) return null;
  request.user = user;
  request.authVia = via;
  return user;
}
