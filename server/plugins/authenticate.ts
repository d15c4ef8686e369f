import type { FastifyRequest } from 'fastify';
import { guestActor, userActor } from '../modules/access/actor.js';
import type { UserRow } from '../db/types.js';
import type { Permission } from '../modules/permissions/policy.js';
import type { UserWithAccess } from '../modules/users/repository.js';
import { SESSION_COOKIE } from './cookies.js';

/** What authentication needs, and no more. */
export interface AuthenticateDeps {
  accessTokens: { resolve(token: string): Promise<number | null> };
  sessions: { resolve(token: string): Promise<number | null> };
  users: {
    findById(id: number): Promise<UserRow | undefined>;
    withAccess(user: UserRow): Promise<UserWithAccess>;
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
  const user = await identify(request, deps);
  request.actor = user ? userActor(user.id, user.permissions) : guestActor((await deps.users.guestRole()).permissions);
}

async function identify(request: FastifyRequest, deps: AuthenticateDeps): Promise<UserWithAccess | null> {
  const header = request.headers.authorization;
  if (header && /^bearer\s+/i.test(header)) {
    const userId = await deps.accessTokens.resolve(header.replace(/^bearer\s+/i, '').trim());
    return userId === null ? null : attach(request, deps, userId, 'token');
  }

  const token = request.cookies[SESSION_COOKIE];
  if (!token) return null;
  const userId = await deps.sessions.resolve(token);
  if (userId === null) return null;
  request.sessionToken = token;
  return attach(request, deps, userId, 'session');
}

async function attach(request: FastifyRequest, deps: AuthenticateDeps, userId: number, via: 'session' | 'token') {
  const row = await deps.users.findById(userId);
  if (!row) return null;
  const user = await deps.users.withAccess(row);
  request.user = user;
  request.authVia = via;
  return user;
}
