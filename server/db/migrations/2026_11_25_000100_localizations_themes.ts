import type { Kysely } from 'kysely';
import { timestampType, withId } from './schema-helpers.js';

/**
 * Branding uploads (logos, favicon). The bytes live on the storage disk; this
 * row keeps the type that was checked at upload, so serving never has to
 * guess it from the bytes or the name.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  await withId(db, db.schema.createTable('branding_files'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('mime', 'varchar(64)', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('uploaded_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('branding_files').execute();
}
