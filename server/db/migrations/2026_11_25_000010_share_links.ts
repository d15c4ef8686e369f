import type { Kysely } from 'kysely';
import { timestampType, withId } from './schema-helpers.js';

/**
 * Sharing by link: several links per entry, each with its own controls
 * (password, expiry, download on/off, a download limit counted in the row,
 * upload-only "file drop" for folders), and an access log per link.
 *
 * The token is kept as issued, not hashed: owners copy a link again whenever
 * they like, as in every drive people compare us with. It is 144 random bits
 * and unique, so the index lookup is the whole check.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  await withId(db, db.schema.createTable('share_links'))
    .addColumn('token', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('entry_id', 'integer', (c) => c.notNull().references('file_entries.id').onDelete('cascade'))
    .addColumn('created_by', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('allow_download', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('file_drop', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('password_hash', 'varchar(255)')
    .addColumn('expires_at', ts)
    .addColumn('max_downloads', 'integer')
    .addColumn('download_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('view_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('share_links_entry_index').on('share_links').column('entry_id').execute();

  await withId(db, db.schema.createTable('share_link_events'))
    .addColumn('link_id', 'integer', (c) => c.notNull().references('share_links.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('entry_name', 'varchar(255)')
    .addColumn('address', 'varchar(64)')
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('share_link_events_link_index').on('share_link_events').columns(['link_id', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('share_link_events').execute();
  await db.schema.dropTable('share_links').execute();
}
