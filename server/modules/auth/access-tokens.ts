import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { randomToken, safeEqual, sha256 } from '../../lib/tokens.js';
import { nowIso } from '../../lib/time.js';
import { accessTokenById, accessTokensOf, deleteAccessToken, insertAccessToken, markAccessTokenUsed } from './access-tokens.repository.js';
import type { AccessCache } from './access-cache.js';
import { DEFAULT_SCOPES, parseScopes, type TokenScope } from './token-scopes.js';

/** How stale a token's "last used" time may be before a use writes it again. */
const LAST_USED_PRECISION_MS = 60_000;

/** Personal access tokens for API clients (`Authorization: Bearer …`). */
export class AccessTokensService {
  /**
   * `cache`: verified tokens are remembered by their hash (see AccessCache):
   * a WebDAV client sends one with each of its requests, hundreds a second.
   * A revoke deletes the row, which empties the cache in every process, so a
   * revoked token stops working at once.
   */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly cache?: AccessCache,
  ) {}

  /** Returns the plain token once; only its hash is stored. */
  async create(userId: number, name: string, expiresAt: string | null = null, scopes: TokenScope[] = DEFAULT_SCOPES): Promise<{ id: number; token: string }> {
    const secret = randomToken(40);
    const id = await insertAccessToken(this.db, {
      user_id: userId,
      name,
      token_hash: sha256(secret),
      scopes: JSON.stringify(scopes),
      expires_at: expiresAt,
      created_at: nowIso(),
    });
    // The id prefix lets the token be found without scanning; the secret part is what is verified.
    return { id, token: `${id}|${secret}` };
  }

  list(userId: number) {
    return accessTokensOf(this.db, userId);
  }

  async revoke(userId: number, id: number): Promise<boolean> {
    return deleteAccessToken(this.db, userId, id);
  }

  async resolve(bearer: string): Promise<{ userId: number; scopes: TokenScope[] } | null> {
    const [idPart, secret] = bearer.split('|', 2);
    const id = Number(idPart);
    if (!secret || !Number.isInteger(id)) return null;
    const hash = sha256(secret);
    const load = () => accessTokenById(this.db, id).then((found) => found ?? null);
    // Only a row whose hash matches is remembered, under the hash: a guess is never a hit, and never kept.
    const row = this.cache ? await this.cache.tokens.get(`${id}:${hash}`, load, (found) => found !== null && safeEqual(found.token_hash, hash)) : await load();
    if (!row || !safeEqual(row.token_hash, hash)) return null;
    const now = nowIso();
    if (row.expires_at && row.expires_at <= now) return null;
    // "Last used" is shown to the minute: a client making hundreds of requests a second (a WebDAV sync)
    // would otherwise turn each of its reads into a write.
    if (!row.last_used_at || Date.parse(String(row.last_used_at)) <= Date.parse(now) - LAST_USED_PRECISION_MS) {
      await markAccessTokenUsed(this.db, id, now);
      // The remembered row too, so the next minute's requests do not write it again.
      row.last_used_at = now;
    }
    return { userId: row.user_id, scopes: parseScopes(row.scopes) };
  }
}
