import type { Kysely } from 'kysely';
import { timestampType, withId } from './schema-helpers.js';

/**
 * Activity (issue 35): one row per action on an entry. No foreign key to the
 * entry: a purge is itself an action, and its row outlives the entry (the
 * scheduler prunes rows older than the retention setting). `entry_name` is the
 * name at the time; `owner_id` and `workspace_id` are the entry's space, for
 * the workspace page. `actor_kind` is user, visitor (a share link), webdav or
 * system; `address` is a visitor's anonymised network, as the link access log
 * keeps it. `details` is a small JSON object (old and new name, a link id).
 *
 * `share_links.notify_owner`: the link's owner asked for receipts (its first
 * download; every file dropped through it).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  await withId(db, db.schema.createTable('entry_activity'))
    .addColumn('entry_id', 'integer', (c) => c.notNull())
    .addColumn('entry_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('entry_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('owner_id', 'integer', (c) => c.notNull())
    .addColumn('workspace_id', 'integer')
    .addColumn('action', 'varchar(32)', (c) => c.notNull())
    .addColumn('actor_kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('actor_id', 'integer')
    .addColumn('address', 'varchar(64)')
    .addColumn('details', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('entry_activity_entry_index').on('entry_activity').columns(['entry_id', 'id']).execute();
  await db.schema.createIndex('entry_activity_workspace_index').on('entry_activity').columns(['workspace_id', 'id']).execute();
  await db.schema.createIndex('entry_activity_created_index').on('entry_activity').column('created_at').execute();
  await db.schema
    .alterTable('share_links')
    .addColumn('notify_owner', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('share_links').dropColumn('notify_owner').execute();
  await db.schema.dropTable('entry_activity').execute();
}
