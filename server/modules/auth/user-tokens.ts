import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { randomToken, sha256 } from '../../lib/tokens.js';
import { addMs, nowIso } from '../../lib/time.js';
import { markUserTokenUsed, replaceUserToken, userTokenByHash } from './user-tokens.repository.js';

export type UserTokenType = 'verify_email' | 'reset_password';

export const VERIFY_EMAIL_TTL_MS = 24 * 60 * 60 * 1000;
export const RESET_PASSWORD_TTL_MS = 60 * 60 * 1000;

/** Single-use tokens from the CSPRNG, stored as sha256 hashes with an expiry. */
export class UserTokensService {
  constructor(private readonly db: Kysely<Database>) {}

  /** Issues a new token; earlier unused tokens of the same kind stop working. */
  async issue(userId: number, type: UserTokenType, ttlMs: number): Promise<string> {
    const token = randomToken(32);
    const now = nowIso();
    await replaceUserToken(this.db, { user_id: userId, type, token_hash: sha256(token), expires_at: addMs(now, ttlMs), created_at: now });
    return token;
  }

  /**
   * Marks the token used and answers its user, or why it cannot be used.
   * The update is conditional on `used_at is null`, so two concurrent uses
   * cannot both succeed.
   */
  async consume(token: string, type: UserTokenType, expectedUserId?: number): Promise<{ userId: number } | { error: 'invalid' | 'expired' | 'used' }> {
    const hash = sha256(token);
    const row = await userTokenByHash(this.db, hash, type);
    if (!row || (expectedUserId !== undefined && row.user_id !== expectedUserId)) return { error: 'invalid' };
    if (row.used_at) return { error: 'used' };
    const now = nowIso();
    if (row.expires_at <= now) return { error: 'expired' };
    if (!(await markUserTokenUsed(this.db, row.id, now))) return { error: 'used' };
    return { userId: row.user_id };
  }
}
