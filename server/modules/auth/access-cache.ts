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

  /** `keep`: whether a loaded value is remembered (a miss, say, need not be). */
  async get(key: K, load: () => Promise<V>, keep: (value: V) => boolean = () => true): Promise<V> {
    const hit = this.entries.get(key);
    if (hit && this.cache.now() - hit.at < TTL_MS) return hit.value;
    const generation = this.cache.generation;
    const value = await load();
    // A change published while this was loading may have come too late for the rows read: keep nothing.
    if (generation === this.cache.generation && keep(value)) {
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
 * the guest role, a personal access token by its hash, the site settings. Every write to the tables these come from publishes on the
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
  /** Personal access tokens by their id and the hash of the whole token (a revoke deletes the row: a change). */
  readonly tokens = new Slot<string, AccessTokenRecord | null>(this);
  /** The stored site settings, all of them (a handful of rows), read by most requests one key at a time. */
  readonly settings = new Slot<'all', readonly StoredSetting[]>(this);

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
    this.tokens.clear();
    this.settings.clear();
  }
}

/** The columns of a personal access token that deciding on a request needs. */
export interface AccessTokenRecord {
  user_id: number;
  token_hash: string;
  expires_at: string | null;
  scopes: string;
  last_used_at: string | null;
}

/** A stored setting's row. */
export interface StoredSetting {
  key: string;
  value: string;
  private: number;
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
