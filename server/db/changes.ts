/**
 * What a write may have made stale: 'access' — who a caller is or what they
 * may do (sessions, users, roles, permissions); 'data' — anything at all
 * (every write, access ones included), which retires listing ETags.
 */
export type ChangeTopic = 'access' | 'data';

/**
 * Tells caches that the database changed, so they drop what they hold.
 *
 * This in-process bus is the only implementation here. Several processes
 * sharing one database need a bus that also carries the event to the others
 * (Redis pub/sub, say): give `createDb` one with the same two methods and
 * nothing else changes, since every writer goes through the watching driver
 * in `watched-dialect.ts`, which is what publishes.
 */
export interface AccessChanges {
  publish(topic: ChangeTopic): void;
  /** Called on every publish, here and (for a shared bus) in the other processes. Returns the unsubscribe. */
  subscribe(listener: (topic: ChangeTopic) => void): () => void;
}

export class InProcessAccessChanges implements AccessChanges {
  private readonly listeners = new Set<(topic: ChangeTopic) => void>();

  publish(topic: ChangeTopic): void {
    for (const listener of this.listeners) listener(topic);
  }

  subscribe(listener: (topic: ChangeTopic) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/**
 * Tables whose writes change who a caller is or what they may do: the access
 * cache's (auth/access-cache.ts) — sessions, users and their permissions,
 * personal access tokens, and the site settings (upload rules, space).
 */
const ACCESS_TABLES = ['users', 'sessions', 'roles', 'user_roles', 'role_permissions', 'user_permissions', 'permissions', 'personal_access_tokens', 'settings'];
const WRITE = new RegExp(`^\\s*(?:update|delete\\s+from|insert\\s+into|replace\\s+into)\\s+"?(${ACCESS_TABLES.join('|')})"?[\\s(]`, 'i');
/** A token's "last used" time, written at most once a minute per token: nothing a decision reads. */
const TOKEN_USED = /^\s*update\s+"?personal_access_tokens"?\s+set\s+"?last_used_at"?\s*=\s*\S+\s+where\b/i;

/**
 * Whether a statement may make cached access stale. A new session or token
 * cannot be stale, so signing in or making a token does not empty everyone's
 * cache; nor does a token's "last used" time.
 */
export function changesAccess(sqlText: string): boolean {
  const match = WRITE.exec(sqlText);
  if (!match) return false;
  const table = match[1]!.toLowerCase();
  if (/^\s*insert/i.test(sqlText) && (table === 'sessions' || table === 'personal_access_tokens')) return false;
  return !TOKEN_USED.test(sqlText);
}

const ANY_WRITE = /^\s*(?:update|delete|insert|replace)\b/i;

/** Whether a statement writes at all (what retires listing ETags). */
export function writes(sqlText: string): boolean {
  return ANY_WRITE.test(sqlText);
}
