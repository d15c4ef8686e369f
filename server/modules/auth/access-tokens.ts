import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { randomToken, safeEqual, sha256 } from '../../lib/tokens.js';
import { nowIso } from '../../lib/time.js';
import { DEFAULT_SCOPES, parseScopes, type TokenScope } from './token-scopes.js';

/** Personal access tokens for API clients (`Authorization: Bearer …`). */
export class AccessTokensService {
  constructor(private readonly db: Kysely<Database>) {}

  /** Returns the plain token once; only its hash is stored. */
  async create(userId: number, name: string, expiresAt: string | null = null, scopes: TokenScope[] = DEFAULT_SCOPES): Promise<{ id: number; token: string }> {
    const secret = randomToken(40);
    const row = await this.db
      .insertInto('personal_access_tokens')
      .values({ user_id: userId, name, token_hash: sha256(secret), scopes: JSON.stringify(scopes), expires_at: expiresAt, created_at: nowIso() })
      .returning('id')
      .executeTakeFirstOrThrow();
    // The id prefix lets the token be found without scanning; the secret part is what is verified.
    return { id: row.id, token: `${row.id}|${secret}` };
  }

  async list(userId: number) {
    const rows = await this.db
      .selectFrom('personal_access_tokens')
      .select(['id', 'name', 'scopes', 'last_used_at', 'expires_at', 'created_at'])
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .execute();
    return rows.map((row) => ({ ...row, scopes: parseScopes(row.scopes) }));
  }

  async revoke(userId: number, id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('personal_access_tokens').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async resolve(bearer: string): Promise<{ userId: number; scopes: TokenScope[] } | null> {
    const [idPart, secret] = bearer.split('|', 2);
    const id = Number(idPart);
    if (!secret || !Number.isInteger(id)) return null;
    const row = await this.db
      .selectFrom('personal_access_tokens')
      .select(['user_id', 'token_hash', 'expires_at', 'scopes'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row || !safeEqual(row.token_hash, sha256(secret))) return null;
    const now = nowIso();
    if (row.expires_at && row.expires_at <= now) return null;
    await this.db.updateTable('personal_access_tokens').set({ last_used_at: now }).where('id', '=', id).execute();
    return { userId: row.user_id, scopes: parseScopes(row.scopes) };
  }
}
