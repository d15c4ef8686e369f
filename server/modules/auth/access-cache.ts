import type { AccessChanges } from '../../db/changes.js';
import type { Permission } from '../permissions/policy.js';
import type { UserWithAccess } from '../users/repository.js';

/** How long an entry may serve without a change being published: a bound on staleness should a publish ever be missed. */
const TTL_MS = 30_000;
/** Beyond this many entries the map starts again rather than grow without end (a flood of distinct tokens). */
const MAX_ENTRIES = 10_000;

interface Entry<V> {
  value: V;
  at: number;
}

class Slot<K, V> {
  private readonly entries = new Map<K, Entry<V>>();

  constructor(private readonly cache: AccessCache) {}

  async get(key: K, load: () => Promise<V>): Promise<V> {
    const hit = this.entries.get(key);
    if (hit && this.cache.now() - hit.at < TTL_MS) return hit.value;
    const generation = this.cache.generation;
    const value = await load();
    // A change published while this was loading may have come too late for the rows read: keep nothing.
    if (generation === this.cache.generation) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(key, { value, at: this.cache.now() });
    }
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}

/**
 * Who a caller is, per process, for the few statements it saves on every
 * request: a session by its token's hash, a user with roles and permissions,
 * the guest role. Every write to the tables these come from publishes on the
 * database's change bus (`server/db/watched-dialect.ts`) and empties the
 * whole cache, so logout, suspension, role and permission edits apply to the
 * very next request. Such writes are rare next to reads; emptying everything
 * keeps the rule simple enough to trust.
 */
export class AccessCache {
  generation = 0;
  readonly sessions = new Slot<string, SessionRecord | null>(this);
  readonly users = new Slot<number, UserWithAccess | null>(this);
  readonly guest = new Slot<'guest', { id: number; name: string; permissions: Permission[] }>(this);

  constructor(
    changes: AccessChanges,
    readonly now: () => number = Date.now,
  ) {
    changes.subscribe((topic) => {
      if (topic === 'access') this.clear();
    });
  }

  clear(): void {
    this.generation += 1;
    this.sessions.clear();
    this.users.clear();
    this.guest.clear();
  }
}

/** The columns of a session that deciding on a request needs. */
export interface SessionRecord {
  user_id: number;
  created_at: string;
  last_active_at: string;
  expires_at: string;
  remember: number;
  impersonator_id: number | null;
}
