import type { Insertable, Kysely } from 'kysely';
import { prepared } from '../../db/prepared.js';
import type { Database } from '../../db/types.js';
import { nowIso } from '../../lib/time.js';
import { actorOf, type ActivityEvent } from './recorder.js';

export const ACTIVITY_PAGE = 50;

const columns = ['id', 'entry_id', 'entry_name', 'entry_type', 'action', 'actor_kind', 'actor_id', 'address', 'details', 'created_at'] as const;

type ActivityRow = Insertable<Database['entry_activity']>;

// One record per new file or folder (a WebDAV PUT's, an upload's): compiled once.
const oneRecord = prepared(
  () => 'one',
  (db, row: Required<Omit<ActivityRow, 'id'>>) => db.insertInto('entry_activity').values(row),
);

/** The only code that queries entry_activity. */
export class ActivityRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(event: ActivityEvent, db: Kysely<Database> = this.db): Promise<void> {
    if (!event.entries.length) return;
    const actor = actorOf(event);
    const createdAt = nowIso();
    const details = event.details ? JSON.stringify(event.details) : null;
    const rows = event.entries.map((entry) => ({
      entry_id: entry.id,
      entry_name: entry.name,
      entry_type: entry.type,
      owner_id: entry.owner_id,
      workspace_id: entry.workspace_id,
      action: event.action,
      actor_kind: actor.kind,
      actor_id: actor.id,
      address: event.address ?? null,
      details,
      created_at: createdAt,
    }));
    if (rows.length === 1) await oneRecord(db, rows[0]!, null);
    else await db.insertInto('entry_activity').values(rows).execute();
  }

  /** An entry's records, newest first; `before` pages on by id. */
  forEntry(entryId: number, before: number | undefined) {
    let query = this.db.selectFrom('entry_activity').select(columns).where('entry_id', '=', entryId);
    if (before !== undefined) query = query.where('id', '<', before);
    return query.orderBy('id', 'desc').limit(ACTIVITY_PAGE).execute();
  }

  /** A workspace's records, newest first. */
  forWorkspace(workspaceId: number, before: number | undefined) {
    let query = this.db.selectFrom('entry_activity').select(columns).where('workspace_id', '=', workspaceId);
    if (before !== undefined) query = query.where('id', '<', before);
    return query.orderBy('id', 'desc').limit(ACTIVITY_PAGE).execute();
  }

  /** Whether a link already had a download recorded (a receipt goes out on the first only). */
  async linkDownloadedBefore(entryId: number, linkId: number, exceptId: number | null = null): Promise<boolean> {
    let query = this.db
      .selectFrom('entry_activity')
      .select('id')
      .where('action', '=', 'link-downloaded')
      .where('entry_id', '=', entryId)
      .where('details', '=', JSON.stringify({ linkId }));
    if (exceptId !== null) query = query.where('id', '<>', exceptId);
    return (await query.limit(1).executeTakeFirst()) !== undefined;
  }

  /** Deletes records created before `cutoff`; how many went. */
  async pruneBefore(cutoff: string): Promise<number> {
    const result = await this.db.deleteFrom('entry_activity').where('created_at', '<', cutoff).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
