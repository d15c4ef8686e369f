import { userActor, type UserActor } from '../access/actor.js';
import type { TokenScope } from '../auth/token-scopes.js';
import { loginLimits } from '../auth/throttles.js';
import { reserveAttempt, type RateLimiter } from '../../lib/rate-limiter.js';
import { HttpError } from '../../lib/errors.js';
import { sha256 } from '../../lib/tokens.js';
import type { Permission } from '../permissions/policy.js';
import type { ProvenCredentials } from './proven-credentials.js';

export interface DavAuthDeps {
  accessTokens: { resolve(token: string): Promise<{ userId: number; scopes: TokenScope[] } | null> };
  permissionsOf(userId: number): Promise<Permission[] | null>;
  rateLimiter: RateLimiter;
  proven: ProvenCredentials;
}

export type DavCaller = { ok: true; actor: UserActor; scopes: TokenScope[] } | { ok: false; status: 401 } | { ok: false; status: 429; error: HttpError };
type Signed = Extract<DavCaller, { ok: true }>;

/**
 * Basic authentication with a personal access token as the password (the
 * user name is not checked: file managers insist on one). The account
 * password never works here, and the session cookie is never read, so a page
 * on another site cannot drive WebDAV with the browser's cookies.
 *
 * Each attempt counts against the sign-in form's limits (per name and
 * address, per address, per name) *before* the token is looked up, so
 * parallel guesses cannot all slip past a check-then-count: past a limit,
 * nothing is compared until it ends. A right token gives its slot back (it
 * never clears a counter: the name is whatever the caller typed, so clearing
 * would let anyone with a token of their own reset the sign-in form's count
 * for someone else's address) and is remembered as proven, so the client's
 * later requests, however parallel, are not counted at all.
 */
export async function authenticateDav(deps: DavAuthDeps, authorization: string | undefined, ip: string): Promise<DavCaller> {
  const match = /^basic\s+(\S+)$/i.exec(authorization?.trim() ?? '');
  if (!match) return { ok: false, status: 401 };
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return { ok: false, status: 401 };
  const secret = decoded.slice(colon + 1);
  const proof = sha256(secret);
  if (deps.proven.has(proof)) {
    const caller = await signIn(deps, secret);
    if (caller) return caller;
    // Revoked or expired since: from now on it is a guess like any other.
    deps.proven.drop(proof);
  }
  const limits = loginLimits(decoded.slice(0, colon) || '-', ip);
  try {
    await reserveAttempt(deps.rateLimiter, limits);
  } catch (error) {
    if (error instanceof HttpError && error.statusCode === 429) return { ok: false, status: 429, error };
    throw error;
  }
  const caller = await signIn(deps, secret);
  if (!caller) return { ok: false, status: 401 };
  for (const limit of limits) await deps.rateLimiter.release(limit.key);
  deps.proven.add(proof);
  return caller;
}

async function signIn(deps: DavAuthDeps, secret: string): Promise<Signed | null> {
  const token = await deps.accessTokens.resolve(secret);
  const permissions = token ? await deps.permissionsOf(token.userId) : null;
  if (!token || !permissions) return null;
  return { ok: true, actor: { ...userActor(token.userId, permissions), via: 'webdav' }, scopes: token.scopes };
}
