import { sql, type Kysely } from 'kysely';
import { isPostgres } from './schema-helpers.js';

/**
 * What a payer is charged (drive/repository.ts bytesCharged) was summed over
 * all their files and versions before every upload: at ten thousand files the
 * sum was most of a small PUT's database time, and each PUT slower than the
 * last. Now a running total per user, kept by triggers on file_entries (files,
 * trash included; folders hold roll-ups and are not charged) and file_versions,
 * so no writer of sizes can forget it: an insert adds, a delete (cascades
 * included) takes away, an update of size, type or owner moves the difference.
 *
 * PostgreSQL: deferred constraint triggers, so the total's row is locked at
 * commit, after every other lock the transaction takes (two writers never
 * wait on each other's folders and totals in opposite orders).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('charged_bytes')
    .addColumn('user_id', 'integer', (c) => c.primaryKey())
    .addColumn('bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`
    insert into charged_bytes (user_id, bytes)
    select owner_id, sum(bytes) from (
      select owner_id, file_size as bytes from file_entries where type <> 'folder'
      union all
      select owner_id, file_size as bytes from file_versions
    ) parts group by owner_id`.execute(db);
  if (isPostgres(db)) {
    // One function a table: plpgsql cannot name old.type on a row that has no such column, even behind a test.
    for (const [table, charged] of [
      ['file_entries', "type <> 'folder'"],
      ['file_versions', 'true'],
    ] as const) {
      const when = (row: 'old' | 'new') => sql.raw(charged === 'true' ? 'true' : `${row}.${charged}`);
      await sql`
        create function ${sql.raw(`${table}_charged_change`)}() returns trigger language plpgsql as $$
        begin
          if tg_op in ('UPDATE', 'DELETE') and ${when('old')} then
            update charged_bytes set bytes = bytes - old.file_size where user_id = old.owner_id;
          end if;
          if tg_op in ('UPDATE', 'INSERT') and ${when('new')} then
            insert into charged_bytes (user_id, bytes) values (new.owner_id, new.file_size)
            on conflict (user_id) do update set bytes = charged_bytes.bytes + excluded.bytes;
          end if;
          return null;
        end $$`.execute(db);
      const columns = table === 'file_entries' ? 'file_size, type, owner_id' : 'file_size, owner_id';
      await sql`
        create constraint trigger ${sql.raw(`${table}_charged`)} after insert or delete or update of ${sql.raw(columns)} on ${sql.table(table)}
        deferrable initially deferred for each row execute function ${sql.raw(`${table}_charged_change`)}()`.execute(db);
    }
    return;
  }
  const add = (row: 'new', table: 'file_entries' | 'file_versions') =>
    sql.raw(
      `insert into charged_bytes (user_id, bytes) select ${row}.owner_id, ${row}.file_size where ${table === 'file_entries' ? `${row}.type <> 'folder'` : '1'}
       on conflict (user_id) do update set bytes = bytes + excluded.bytes;`,
    );
  const take = (table: 'file_entries' | 'file_versions') =>
    sql.raw(
      `update charged_bytes set bytes = bytes - old.file_size where user_id = old.owner_id${table === 'file_entries' ? ` and old.type <> 'folder'` : ''};`,
    );
  for (const table of ['file_entries', 'file_versions'] as const) {
    const columns = table === 'file_entries' ? 'file_size, type, owner_id' : 'file_size, owner_id';
    await sql`create trigger ${sql.raw(`${table}_charged_insert`)} after insert on ${sql.table(table)} begin ${add('new', table)} end`.execute(db);
    await sql`create trigger ${sql.raw(`${table}_charged_delete`)} after delete on ${sql.table(table)} begin ${take(table)} end`.execute(db);
    await sql`create trigger ${sql.raw(`${table}_charged_update`)} after update of ${sql.raw(columns)} on ${sql.table(table)} begin ${take(table)} ${add('new', table)} end`.execute(
      db,
    );
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    for (const table of ['file_entries', 'file_versions']) {
      await sql`drop trigger ${sql.raw(`${table}_charged`)} on ${sql.table(table)}`.execute(db);
      await sql`drop function ${sql.raw(`${table}_charged_change`)}()`.execute(db);
    }
  } else {
    for (const table of ['file_entries', 'file_versions'])
      for (const event of ['insert', 'delete', 'update']) await sql`drop trigger ${sql.raw(`${table}_charged_${event}`)}`.execute(db);
  }
  await db.schema.dropTable('charged_bytes').execute();
}
