import { sql, type Kysely } from 'kysely';
import { isPostgres } from './schema-helpers.js';

/**
 * Who created an entry, apart from who owns it: an upload into someone
 * else's folder (a share, a workspace) is owned by the owner of the place and
 * charged to them, but the uploader is remembered. Deleting that user keeps
 * the entry (set null).
 *
 * Deleting a user no longer removes their entries silently: the owner key
 * restricts, so account deletion must first delete what is theirs and hand
 * over what the spec says transfers (a member's entries in a workspace go to
 * its owner). SQLite cannot change a foreign key without rebuilding the table
 * (and a rebuild's implicit delete would fire the stars' cascade), so there a
 * trigger refuses the delete instead.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('file_entries')
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await sql`update file_entries set created_by = owner_id`.execute(db);

  // A reservation is charged to the payer of the destination (user_id) but belongs to the uploader,
  // who alone may resume, finish or cancel it.
  await db.schema
    .alterTable('upload_reservations')
    .addColumn('uploader_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .execute();
  await sql`update upload_reservations set uploader_id = user_id`.execute(db);

  if (isPostgres(db)) {
    const found = await sql<{ conname: string }>`
      select conname from pg_constraint
      where conrelid = 'file_entries'::regclass and contype = 'f'
        and conkey = array[(select attnum from pg_attribute where attrelid = 'file_entries'::regclass and attname = 'owner_id')]::smallint[]
    `.execute(db);
    for (const { conname } of found.rows) await sql`alter table file_entries drop constraint ${sql.id(conname)}`.execute(db);
    await sql`alter table file_entries add constraint file_entries_owner_id_fkey foreign key (owner_id) references users (id) on delete restrict`.execute(db);
  } else {
    await sql`create trigger users_keep_entries before delete on users
      when exists (select 1 from file_entries where owner_id = old.id)
      begin select raise(abort, 'FOREIGN KEY constraint failed: the user still owns file entries'); end`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`alter table file_entries drop constraint file_entries_owner_id_fkey`.execute(db);
    await sql`alter table file_entries add constraint file_entries_owner_id_fkey foreign key (owner_id) references users (id) on delete cascade`.execute(db);
  } else {
    await sql`drop trigger if exists users_keep_entries`.execute(db);
  }
  await db.schema.alterTable('upload_reservations').dropColumn('uploader_id').execute();
  await db.schema.alterTable('file_entries').dropColumn('created_by').execute();
}
