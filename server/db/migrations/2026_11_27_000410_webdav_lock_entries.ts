import { sql, type Kysely } from 'kysely';

/**
 * A WebDAV lock on an entry names the entry, not only the path it had when
 * it was taken, so that it follows the entry through a rename or move in the
 * web app (issue 37). `resource` (the path key) stays for locks on what has no
 * row: a space's top. Deleting the entry forever drops its locks.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table webdav_locks add column entry_id integer references file_entries (id) on delete cascade`.execute(db);
  await sql`create index webdav_locks_entry_index on webdav_locks (entry_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index webdav_locks_entry_index`.execute(db);
  await sql`alter table webdav_locks drop column entry_id`.execute(db);
}
