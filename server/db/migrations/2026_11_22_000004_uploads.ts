import type { Kysely } from 'kysely';
import { timestampType } from './schema-helpers.js';

/** Storage reserved by uploads in flight, so parallel uploads cannot overshoot a quota together. */
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  await db.schema
    .createTable('upload_reservations')
    .addColumn('key', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('upload_reservations_user_index').on('upload_reservations').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('upload_reservations').execute();
}
