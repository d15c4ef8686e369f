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

/** Tables whose writes change who a caller is or what they may do (access tokens are read afresh on every call, so not theirs). */
const ACCESS_TABLES = ['users', 'sessions', 'roles', 'user_roles', 'role_permissions', 'user_permissions', 'permissions'];
const WRITE = new RegExp(`^\\s*(?:update|delete\\s+from|insert\\s+into|replace\\s+into)\\s+"?(${ACCESS_TABLES.join('|')})"?[\\s(]`, 'i');

/**
 * Whether a statement may make cached access stale. A new session cannot be
 * stale, so signing in does not empty everyone's cache.
 */
export function changesAccess(sqlText: string): boolean {
  const match = WRITE.exec(sqlText);
  if (!match) return false;
  return !(/^\s*insert/i.test(sqlText) && match[1]!.toLowerCase() === 'sessions');
}

const ANY_WRITE = /^\s*(?:update|delete|insert|replace)\b/i;

/** Whether a statement writes at all (what retires listing ETags). */
export function writes(sqlText: string): boolean {
  return ANY_WRITE.test(sqlText);
}
