import type { Kysely } from 'kysely';
import { timestampType, withId } from './schema-helpers.js';

/**
 * WebDAV: locks (RFC 4918 §6–7) live here rather than in memory so that
 * several app processes see the same ones; each expires by itself. Dead
 * properties (PROPPATCH) belong to an entry and go with it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  await db.schema
    .createTable('webdav_locks')
    .addColumn('token', 'varchar(80)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('resource', 'text', (c) => c.notNull())
    .addColumn('depth', 'varchar(16)', (c) => c.notNull())
    .addColumn('scope', 'varchar(16)', (c) => c.notNull())
    .addColumn('owner', 'text')
    .addColumn('timeout_seconds', 'integer', (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webdav_locks_resource_index').on('webdav_locks').column('resource').execute();

  await withId(db, db.schema.createTable('webdav_properties'))
    .addColumn('entry_id', 'integer', (c) => c.notNull().references('file_entries.id').onDelete('cascade'))
    .addColumn('namespace', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addUniqueConstraint('webdav_properties_entry_name_unique', ['entry_id', 'namespace', 'name'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webdav_properties').execute();
  await db.schema.dropTable('webdav_locks').execute();
}
