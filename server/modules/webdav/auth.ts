import { userActor, type UserActor } from '../access/actor.js';
import type { TokenScope } from '../auth/token-scopes.js';
import { loginLimits } from '../auth/throttles.js';
import { tooManyAttempts, type RateLimiter } from '../../lib/rate-limiter.js';
import type { HttpError } from '../../lib/errors.js';
import type { Permission } from '../permissions/policy.js';

export interface DavAuthDeps {
  accessTokens: { resolve(token: string): Promise<{ userId: number; scopes: TokenScope[] } | null> };
  permissionsOf(userId: number): Promise<Permission[] | null>;
  rateLimiter: RateLimiter;
}

export type DavCaller = { ok: true; actor: UserActor; scopes: TokenScope[] } | { ok: false; status: 401 } | { ok: false; status: 429; error: HttpError };

/**
 * Basic authentication with a personal access token as the password (the
 * user name is not checked: file managers insist on one). The account
 * password never works here, and the session cookie is never read, so a page
 * on another site cannot drive WebDAV with the browser's cookies. Wrong
 * tokens count against the sign-in form's limits (per name and address, per
 * address); once a limit is used up, nothing is compared until it ends.
 * Right tokens are not counted, so a client's parallel requests never trip it.
 */
export async function authenticateDav(deps: DavAuthDeps, authorization: string | undefined, ip: string): Promise<DavCaller> {
  const match = /^basic\s+(\S+)$/i.exec(authorization?.trim() ?? '');
  if (!match) return { ok: false, status: 401 };
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return { ok: false, status: 401 };
  const limits = loginLimits(decoded.slice(0, colon) || '-', ip);
  for (const limit of limits) {
    const { count, retryAfterSeconds } = await deps.rateLimiter.peek(limit.key);
    if (count >= limit.max) return { ok: false, status: 429, error: tooManyAttempts(retryAfterSeconds) };
  }
  const token = await deps.accessTokens.resolve(decoded.slice(colon + 1));
  const permissions = token ? await deps.permissionsOf(token.userId) : null;
  if (!token || !permissions) {
    for (const limit of limits) await deps.rateLimiter.hit(limit.key, limit.windowMs);
    return { ok: false, status: 401 };
  }
  return { ok: true, actor: userActor(token.userId, permissions), scopes: token.scopes };
}
