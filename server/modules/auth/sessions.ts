import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { randomToken, sha256 } from '../../lib/tokens.js';
import { addMs, nowIso } from '../../lib/time.js';
import type { AccessCache } from './access-cache.js';
import { deleteAccessTokensOf } from './access-tokens.repository.js';
import { deleteSession, deleteSessionsOf, insertSession, sessionById, touchSession } from './sessions.repository.js';

const DAY = 24 * 60 * 60 * 1000;
/** A remembered session lives 30 days; another ends after 12 idle hours. */
export const REMEMBER_LIFETIME_MS = 30 * DAY;
export const IDLE_LIFETIME_MS = DAY / 2;
/** Writing last_active_at on every request would serialise reads behind writes. */
const TOUCH_INTERVAL_MS = 5 * 60 * 1000;

export interface StartedSession {
  token: string;
  expiresAt: string;
  remember: boolean;
}

export class SessionsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly cache?: AccessCache,
  ) {}

  async start(
    userId: number,
    meta: { ip: string | null; userAgent: string | null; remember: boolean; impersonatorId?: number | null },
  ): Promise<StartedSession> {
    const token = randomToken();
    const now = nowIso();
    const expiresAt = addMs(now, meta.remember ? REMEMBER_LIFETIME_MS : IDLE_LIFETIME_MS);
    await insertSession(this.db, {
      id: sha256(token),
      user_id: userId,
      ip_address: meta.ip,
      user_agent: meta.userAgent?.slice(0, 1000) ?? null,
      remember: meta.remember ? 1 : 0,
      created_at: now,
      last_active_at: now,
      expires_at: expiresAt,
      impersonator_id: meta.impersonatorId ?? null,
    });
    return { token, expiresAt, remember: meta.remember };
  }

  /** The user behind a cookie token and when they signed in, sliding the expiry of sessions that are not remembered. */
  /** `id`: the token's hash, when the caller has worked it out already (the request's, plugins/cookies.ts). */
  async resolve(token: string, id = sha256(token)): Promise<{ userId: number; startedAt: string; impersonatorId: number | null } | null> {
    const load = async () => (await sessionById(this.db, id)) ?? null;
    const session = this.cache ? await this.cache.sessions.get(id, load) : await load();
    if (!session) return null;
    // In milliseconds: an ISO string for now is needed only when the session is touched (issue 38 §3).
    const nowMs = Date.now();
    if (Date.parse(session.expires_at) <= nowMs) {
      await deleteSession(this.db, id);
      return null;
    }
    if (nowMs - Date.parse(session.last_active_at) > TOUCH_INTERVAL_MS) {
      const now = new Date(nowMs).toISOString();
      const expiresAt = session.remember ? session.expires_at : addMs(now, IDLE_LIFETIME_MS);
      await touchSession(this.db, id, now, expiresAt);
    }
    return { userId: session.user_id, startedAt: session.created_at, impersonatorId: session.impersonator_id };
  }

  async end(token: string): Promise<void> {
    await deleteSession(this.db, sha256(token));
  }

  /** Ends every session of a user and every personal access token (suspension: they stop at once). */
  async endAll(userId: number): Promise<void> {
    await deleteSessionsOf(this.db, userId);
    await deleteAccessTokensOf(this.db, userId);
  }

  /** Ends every session of a user except, optionally, the one in use. */
  async endOthers(userId: number, keepToken?: string): Promise<void> {
    await deleteSessionsOf(this.db, userId, keepToken ? sha256(keepToken) : undefined);
  }
}
