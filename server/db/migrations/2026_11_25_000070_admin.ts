import type { Kysely } from 'kysely';
import { timestampType, withId } from './schema-helpers.js';

/**
 * The admin area: suspended accounts, sessions started by an admin signing in
 * as someone ("sign in as", for support), and the log of admin actions.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  await db.schema.alterTable('users').addColumn('suspended_at', ts).execute();
  // The admin who started this session as the user; null for the user's own sign-ins.
  await db.schema
    .alterTable('sessions')
    .addColumn('impersonator_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .execute();

  await withId(db, db.schema.createTable('admin_activity'))
    .addColumn('actor_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('actor_label', 'varchar(320)', (c) => c.notNull())
    .addColumn('action', 'varchar(64)', (c) => c.notNull())
    .addColumn('subject_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('subject_id', 'varchar(64)')
    .addColumn('subject_label', 'varchar(320)')
    .addColumn('details', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('ip_address', 'varchar(64)')
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('admin_activity_created_index').on('admin_activity').columns(['created_at', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('admin_activity').execute();
  await db.schema.alterTable('sessions').dropColumn('impersonator_id').execute();
  await db.schema.alterTable('users').dropColumn('suspended_at').execute();
}
