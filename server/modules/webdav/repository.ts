import type { Kysely, Selectable } from 'kysely';
import type { Database, WebdavLocksTable, WebdavPropertiesTable } from '../../db/types.js';
import { lockDavLocks } from '../../db/locks.js';
import { nowIso } from '../../lib/time.js';
import { belowBounds, entryBelow, entryBetween, liveChildIds, type Scope } from '../drive/repository.js';
import { prepared } from '../../db/prepared.js';

export interface DavLock {
  token: string;
  userId: number;
  /** The path key it was taken on; it decides only for a lock without an entry (taken before locks followed entries). */
  resource: string;
  /** The locked entry: the lock follows it through renames and moves, in WebDAV or the web app. */
  entryId: number | null;
  depth: '0' | 'infinity';
  scope: 'exclusive' | 'shared';
  owner: string | null;
  timeoutSeconds: number;
  expiresAt: string;
}

export interface DeadProperty {
  ns: string;
  name: string;
  /** The property element itself, as XML. */
  xml: string;
}

const toLock = (row: Selectable<WebdavLocksTable>): DavLock => ({
  token: row.token,
  userId: row.user_id,
  resource: row.resource,
  entryId: row.entry_id ?? null,
  depth: row.depth === '0' ? '0' : 'infinity',
  scope: row.scope === 'shared' ? 'shared' : 'exclusive',
  owner: row.owner,
  timeoutSeconds: row.timeout_seconds,
  expiresAt: String(row.expires_at),
});

/**
 * What a lock check is about: the path key (for path-keyed locks), and for an
 * entry its id, path and the ids above it; for a free name, the ids of the
 * folders above it.
 */
export interface LockTarget {
  key: string;
  entryId: number | null;
  /** The entry's path, when it is an entry (locks below it are found through it). */
  path: string | null;
  /** Entry ids above the target, top first; the last is its folder. */
  ancestorIds: number[];
}

export const ancestorKeys = (key: string): string[] => {
  const parts = key.split('/');
  return parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join('/'));
};

function collect(rows: Selectable<WebdavPropertiesTable>[], byEntry: Map<number, DeadProperty[]>): Map<number, DeadProperty[]> {
  for (const row of rows) {
    const list = byEntry.get(row.entry_id);
    if (list) list.push({ ns: row.namespace, name: row.name, xml: row.value });
    else byEntry.set(row.entry_id, [{ ns: row.namespace, name: row.name, xml: row.value }]);
  }
  return byEntry;
}

/** The values of locksNear, flat (each a slot of the prepared statement): `from`/`to` bound the key's range, `belowFrom`/`belowTo` the path's. */
type LocksNear = { now: string; key: string; from: string; to: string; belowFrom?: string; belowTo?: string } & Record<`a${number}`, string> &
  Record<`e${number}`, number>;

// Every write asks it (lock-rules.ts): compiled once per number of ancestors and of entries, and whether the target has entries below.
const locksNear = prepared(
  (s: { ancestors: number; ids: number; below: boolean }) => `${s.ancestors}:${s.ids}:${s.below ? 'below' : ''}`,
  (db, v: LocksNear, s) => {
    const ancestors = Array.from({ length: s.ancestors }, (_, i) => v[`a${i}`]!);
    const ids = Array.from({ length: s.ids }, (_, i) => v[`e${i}`]!);
    return db
      .selectFrom('webdav_locks')
      .selectAll()
      .where('expires_at', '>', v.now)
      .where((eb) =>
        eb.or([
          eb.and([
            eb('entry_id', 'is', null),
            eb.or([
              eb('resource', '=', v.key),
              ...(ancestors.length ? [eb('resource', 'in', ancestors)] : []),
              eb.and([eb('resource', '>=', v.from), eb('resource', '<', v.to)]),
            ]),
          ]),
          ...(ids.length ? [eb('entry_id', 'in', ids)] : []),
          ...(s.below ? [eb.exists(entryBetween(db, eb.ref('webdav_locks.entry_id'), { from: v.belowFrom, to: v.belowTo }))] : []),
        ]),
      );
  },
);

/** SQL of WebDAV's own state: locks by resource path, dead properties by entry. */
export class WebDavRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Live locks that may apply to a target (the caller decides which do): on
   * its entry or the entries above it, on entries below it, and the path-keyed
   * locks of entry-less targets on its key, its ancestors' keys or below.
   */
  async locksAround(target: LockTarget): Promise<DavLock[]> {
    const ids = [...target.ancestorIds, ...(target.entryId !== null ? [target.entryId] : [])];
    const ancestors = ancestorKeys(target.key);
    const values: LocksNear = {
      now: nowIso(),
      key: target.key,
      ...belowBounds(target.key),
      ...(target.path !== null ? { belowFrom: belowBounds(target.path).from, belowTo: belowBounds(target.path).to } : {}),
      ...Object.fromEntries(ancestors.map((key, i) => [`a${i}`, key])),
      ...Object.fromEntries(ids.map((id, i) => [`e${i}`, id])),
    };
    const rows = await locksNear(this.db, values, { ancestors: ancestors.length, ids: ids.length, below: target.path !== null });
    return rows.map(toLock);
  }

  /**
   * Runs `grant` (which looks for conflicting locks and inserts its own, through
   * the repository it is given) serialised with every other grant in the space
   * `spaceKey`, in one transaction.
   */
  async serialisedGrant<T>(spaceKey: number, grant: (repo: WebDavRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      await lockDavLocks(trx, spaceKey);
      return grant(new WebDavRepository(trx));
    });
  }

  async lockByToken(token: string): Promise<DavLock | undefined> {
    const row = await this.db.selectFrom('webdav_locks').selectAll().where('token', '=', token).where('expires_at', '>', nowIso()).executeTakeFirst();
    return row ? toLock(row) : undefined;
  }

  async insertLock(lock: DavLock): Promise<void> {
    await this.db
      .insertInto('webdav_locks')
      .values({
        token: lock.token,
        user_id: lock.userId,
        resource: lock.resource,
        depth: lock.depth,
        entry_id: lock.entryId,
        scope: lock.scope,
        owner: lock.owner,
        timeout_seconds: lock.timeoutSeconds,
        expires_at: lock.expiresAt,
        created_at: nowIso(),
      })
      .execute();
  }

  async refreshLock(token: string, timeoutSeconds: number, expiresAt: string): Promise<void> {
    await this.db.updateTable('webdav_locks').set({ timeout_seconds: timeoutSeconds, expires_at: expiresAt }).where('token', '=', token).execute();
  }

  async deleteLock(token: string): Promise<void> {
    await this.db.deleteFrom('webdav_locks').where('token', '=', token).execute();
  }

  /** Locks of a resource that went away (moved or deleted) and everything below it; expired ones too. */
  async deleteLocksUnder(target: LockTarget): Promise<void> {
    await this.db
      .deleteFrom('webdav_locks')
      .where((eb) =>
        eb.or([
          eb.and([eb('entry_id', 'is', null), eb('resource', '=', target.key)]),
          eb.and([eb('entry_id', 'is', null), eb('resource', '>=', `${target.key}/`), eb('resource', '<', `${target.key}0`)]),
          ...(target.entryId !== null ? [eb('entry_id', '=', target.entryId)] : []),
          ...(target.path !== null ? [eb.exists(entryBelow(this.db, eb.ref('webdav_locks.entry_id'), target.path, true))] : []),
          eb('expires_at', '<=', nowIso()),
        ]),
      )
      .execute();
  }

  async properties(entryIds: number[]): Promise<Map<number, DeadProperty[]>> {
    const byEntry = new Map<number, DeadProperty[]>();
    // A few hundred ids per statement keeps within both dialects' parameter limits.
    for (let i = 0; i < entryIds.length; i += 500) {
      const rows = await this.db
        .selectFrom('webdav_properties')
        .selectAll()
        .where('entry_id', 'in', entryIds.slice(i, i + 500))
        .orderBy('id')
        .execute();
      collect(rows, byEntry);
    }
    return byEntry;
  }

  /**
   * The dead properties of an entry (`entryId`, null for none) and of the live
   * children of a folder (`parentId`; null: the space's top level), in one
   * statement whatever the folder holds.
   */
  async propertiesOfChildren(entryId: number | null, space: Scope, parentId: number | null): Promise<Map<number, DeadProperty[]>> {
    const children = liveChildIds(this.db, space, parentId);
    const rows = await this.db
      .selectFrom('webdav_properties')
      .selectAll()
      .where((eb) => eb.or([eb('entry_id', 'in', children), ...(entryId !== null ? [eb('entry_id', '=', entryId)] : [])]))
      .orderBy('id')
      .execute();
    return collect(rows, new Map());
  }

  /** Gives copies the dead properties of their originals (COPY keeps them: RFC 4918 §9.8.2). */
  async copyProperties(pairs: [from: number, to: number][]): Promise<void> {
    const copyOf = new Map(pairs);
    const rows = await this.properties([...copyOf.keys()]);
    const values = [...rows].flatMap(([from, list]) => list.map((p) => ({ entry_id: copyOf.get(from)!, namespace: p.ns, name: p.name, value: p.xml })));
    // A few hundred rows per statement keeps within both dialects' parameter limits.
    for (let i = 0; i < values.length; i += 200)
      await this.db
        .insertInto('webdav_properties')
        .values(values.slice(i, i + 200))
        .execute();
  }

  /** Sets and removes dead properties in order, all or nothing. */
  async patchProperties(entryId: number, changes: ({ op: 'set'; property: DeadProperty } | { op: 'remove'; ns: string; name: string })[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      for (const change of changes) {
        const ns = change.op === 'set' ? change.property.ns : change.ns;
        const name = change.op === 'set' ? change.property.name : change.name;
        await trx.deleteFrom('webdav_properties').where('entry_id', '=', entryId).where('namespace', '=', ns).where('name', '=', name).execute();
        if (change.op === 'set')
          await trx.insertInto('webdav_properties').values({ entry_id: entryId, namespace: ns, name, value: change.property.xml }).execute();
      }
    });
  }
}
