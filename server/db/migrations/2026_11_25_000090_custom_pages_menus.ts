import type { Kysely } from 'kysely';
import { timestampType, withId } from './schema-helpers.js';

/**
 * Custom content pages (spec §2 "Custom page", §3): an admin-written HTML
 * body (stored already sanitised), SEO fields and who may read it. Menus were
 * stored from the start (foundation); only pages are new.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  await withId(db, db.schema.createTable('custom_pages'))
    .addColumn('title', 'varchar(250)', (c) => c.notNull())
    .addColumn('slug', 'varchar(250)', (c) => c.notNull().unique())
    .addColumn('body', 'text', (c) => c.notNull())
    // JSON: { description, keywords, og_image }.
    .addColumn('meta', 'text', (c) => c.notNull().defaultTo('{}'))
    // 'public' or 'signed_in'.
    .addColumn('visibility', 'varchar(16)', (c) => c.notNull().defaultTo('public'))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('custom_pages').execute();
}
