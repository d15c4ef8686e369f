import type { FastifyRequest } from 'fastify';
import { guestActor, userActor } from '../modules/access/actor.js';
import type { Permission } from '../modules/permissions/policy.js';
import type { TokenScope } from '../modules/auth/token-scopes.js';
import type { UserWithAccess } from '../modules/users/repository.js';
import { SESSION_COOKIE, sessionIdOf } from './cookies.js';

/** What authentication needs, and no more. */
export interface AuthenticateDeps {
  accessTokens: { resolve(token: string): Promise<{ userId: number; scopes: TokenScope[] } | null> };
  /** `id`: the token's hash when the caller has it already (plugins/cookies.ts sessionIdOf). */
  sessions: { resolve(token: string, id?: string): Promise<{ userId: number; startedAt: string; impersonatorId: number | null } | null> };
  users: {
    findWithAccess(id: number): Promise<UserWithAccess | null>;
    guestRole(): Promise<{ permissions: Permission[] }>;
  };
  /** Whether a user has a second factor (TwoFactorService.enabled). */
  twoFactor: { enabled(userId: number): Promise<boolean> };
}

/**
 * What a browser session may call while a role of its user requires two-factor
 * sign-in and the user has none yet (issue 36): setting one up, and nothing
 * else of the account. Every other call sees a guest (signing out still ends
 * the session: it reads the cookie, not the user).
 */
export const TWO_FACTOR_SETUP_ROUTES: ReadonlySet<string> = new Set([
  'GET /api/v1/user/two-factor',
  'POST /api/v1/user/two-factor/totp',
  'POST /api/v1/user/two-factor/totp/confirm',
  'GET /api/v1/user/passkeys',
  'POST /api/v1/user/passkeys/options',
  'POST /api/v1/user/passkeys',
]);

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
  request.twoFactorSetupPending = false;
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
  const session = await deps.sessions.resolve(token, sessionIdOf(request, token));
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
  // A role requires a second factor this user has not set up: its session reaches only the set-up. Tokens are a
  // second secret already, and an admin's "sign in as" passed both steps itself.
  if (via === 'session' && user.two_factor_required && request.impersonatorId === null && !(await deps.twoFactor.enabled(user.id))) {
    if (!TWO_FACTOR_SETUP_ROUTES.has(`${request.method} ${request.routeOptions.url ?? ''}`)) {
      // The bootstrap data says so, so a reloaded page goes back to the set-up instead of the sign-in form.
      request.twoFactorSetupPending = true;
      return null;
    }
  }
  request.user = user;
  request.authVia = via;
  return user;
}
