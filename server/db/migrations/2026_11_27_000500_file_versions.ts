import type { Kysely } from 'kysely';
import { timestampType, withId } from './schema-helpers.js';

/**
 * File versions (issue 34) and trash retention.
 *
 * `file_versions`: the bytes a file had before an overwrite (a document save,
 * a WebDAV PUT or MOVE onto it, an upload that replaced it, a restore). The
 * row takes over the old storage object as it was (no copy). `owner_id` is the
 * file's owner, who is charged for it (entries never change owner, so it is
 * kept here to sum and trim a payer's versions without a join). `created_at`
 * and `created_by` are when and by whom those bytes were written.
 *
 * `file_entries.content_at` / `content_by`: when and by whom the current bytes
 * were written (null: at creation, by created_by), so a version made from them
 * later carries the right time and author; `updated_at` also moves on a rename.
 *
 * `file_entries.purge_at`: set with deleted_at when an entry goes to the
 * trash, the time the scheduler deletes it forever. `products.trash_days`: a
 * plan's trash retention (null: the site's).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  await withId(db, db.schema.createTable('file_versions'))
    .addColumn('entry_id', 'integer', (c) => c.notNull().references('file_entries.id').onDelete('cascade'))
    .addColumn('owner_id', 'integer', (c) => c.notNull())
    .addColumn('disk_prefix', 'varchar(64)', (c) => c.notNull())
    .addColumn('file_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('file_size', 'bigint', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)')
    .addColumn('mime', 'varchar(255)')
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('replaced_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('file_versions_entry_index').on('file_versions').columns(['entry_id', 'id']).execute();
  await db.schema.createIndex('file_versions_owner_index').on('file_versions').columns(['owner_id', 'created_at']).execute();
  await db.schema.createIndex('file_versions_prefix_index').on('file_versions').column('disk_prefix').execute();

  await db.schema.alterTable('file_entries').addColumn('content_at', ts).execute();
  await db.schema
    .alterTable('file_entries')
    .addColumn('content_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema.alterTable('file_entries').addColumn('purge_at', ts).execute();
  await db.schema.createIndex('file_entries_purge_index').on('file_entries').column('purge_at').execute();
  await db.schema.alterTable('products').addColumn('trash_days', 'integer').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('products').dropColumn('trash_days').execute();
  await db.schema.dropIndex('file_entries_purge_index').execute();
  await db.schema.alterTable('file_entries').dropColumn('purge_at').execute();
  await db.schema.alterTable('file_entries').dropColumn('content_by').execute();
  await db.schema.alterTable('file_entries').dropColumn('content_at').execute();
  await db.schema.dropTable('file_versions').execute();
}
