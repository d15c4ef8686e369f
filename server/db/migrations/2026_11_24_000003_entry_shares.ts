import { sql, type Kysely } from 'kysely';
import { timestampType, withId } from './schema-helpers.js';

/**
 * Sharing with people: a share gives one user view (and download) or edit
 * rights on an entry and, through the materialised path, everything below
 * it. The default role gets files.share now that sharing exists; new
 * installations get it from the seeder.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  await withId(db, db.schema.createTable('entry_shares'))
    .addColumn('entry_id', 'integer', (c) => c.notNull().references('file_entries.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('permission', 'varchar(16)', (c) => c.notNull())
    .addColumn('shared_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addUniqueConstraint('entry_shares_entry_user_unique', ['entry_id', 'user_id'])
    .execute();
  await db.schema.createIndex('entry_shares_user_index').on('entry_shares').columns(['user_id', 'entry_id']).execute();

  await sql`insert into role_permissions (role_id, permission_id, restrictions)
    select r.id, p.id, '[]' from roles r, permissions p
    where r.name = 'users' and r.type = 'sitewide' and p.name = 'files.share'
      and not exists (select 1 from role_permissions rp where rp.role_id = r.id and rp.permission_id = p.id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('entry_shares').execute();
}
