import type { Kysely, Selectable } from 'kysely';
import type { Database, WebdavLocksTable } from '../../db/types.js';
import { nowIso } from '../../lib/time.js';

export interface DavLock {
  token: string;
  userId: number;
  resource: string;
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
  depth: row.depth === '0' ? '0' : 'infinity',
  scope: row.scope === 'shared' ? 'shared' : 'exclusive',
  owner: row.owner,
  timeoutSeconds: row.timeout_seconds,
  expiresAt: String(row.expires_at),
});

/** SQL of WebDAV's own state: locks by resource path, dead properties by entry. */
export class WebDavRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Live locks on `resource`, on any of `ancestors`, or below `resource` (the caller decides which of them apply). */
  async locksAround(resource: string, ancestors: string[]): Promise<DavLock[]> {
    const now = nowIso();
    const rows = await this.db
      .selectFrom('webdav_locks')
      .selectAll()
      .where('expires_at', '>', now)
      .where((eb) =>
        eb.or([
          eb('resource', '=', resource),
          ...(ancestors.length ? [eb('resource', 'in', ancestors)] : []),
          eb.and([eb('resource', '>=', `${resource}/`), eb('resource', '<', `${resource}0`)]),
        ]),
      )
      .execute();
    return rows.map(toLock);
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
  async deleteLocksUnder(resource: string): Promise<void> {
    await this.db
      .deleteFrom('webdav_locks')
      .where((eb) =>
        eb.or([
          eb('resource', '=', resource),
          eb.and([eb('resource', '>=', `${resource}/`), eb('resource', '<', `${resource}0`)]),
          eb('expires_at', '<=', nowIso()),
        ]),
      )
      .execute();
  }

  async properties(entryIds: number[]): Promise<Map<number, DeadProperty[]>> {
    const byEntry = new Map<number, DeadProperty[]>();
    if (!entryIds.length) return byEntry;
    const rows = await this.db.selectFrom('webdav_properties').selectAll().where('entry_id', 'in', entryIds).orderBy('id').execute();
    for (const row of rows) {
      const list = byEntry.get(row.entry_id) ?? [];
      list.push({ ns: row.namespace, name: row.name, xml: row.value });
      byEntry.set(row.entry_id, list);
    }
    return byEntry;
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
