import { sql, type Kysely } from 'kysely';
import { isPostgres } from './schema-helpers.js';

/**
 * PostgreSQL's running totals of charged bytes (2026_11_29_000300) were kept by
 * a deferred trigger a row: a transaction writing a million files updated its
 * owner's total a million times at commit, and each update of a row the same
 * transaction had already updated walks every version it made before — 40+
 * minutes to commit a million-entry import. Now a trigger a statement sums
 * an insert's or a delete's transition table into one delta an owner, and
 * an update appends a row's deltas only when its charge moves (a WHEN
 * clause, so the folder roll-ups every upload writes call nothing), both
 * into charged_bytes_pending (no lock shared with any other writer); one
 * deferred trigger folds the transaction's deltas into charged_bytes at
 * commit, owners in id order: the totals are still locked last, after every
 * other lock the transaction takes, and now in one order for everyone, and a
 * million-row INSERT costs one update of its owner's total.
 *
 * SQLite keeps its row triggers: it has no row versions to walk (an update
 * rewrites the row in place) and one writer at a time.
 */
const TABLES = [
  { table: 'file_entries', charged: (row: string) => `${row}.type <> 'folder'` },
  { table: 'file_versions', charged: () => 'true' },
] as const;

/** Set for the transaction while it has deltas that no fold has taken yet (so every other queued fold is a no-op). */
const PENDING_FLAG = 'drive.charged_bytes_pending';

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  // Rows live from a statement to its transaction's commit; vacuumed often so the fold's scan stays a page or two.
  await sql`
    create table charged_bytes_pending (user_id integer not null, bytes bigint not null)
    with (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000)`.execute(db);
  await sql`
    create function charged_bytes_fold() returns trigger language plpgsql as $$
    begin
      if current_setting(${sql.lit(PENDING_FLAG)}, true) = 'yes' then
        perform set_config(${sql.lit(PENDING_FLAG)}, '', true);
        -- Only this transaction's rows are visible: every other writer folds (deletes) its own before it commits.
        with taken as (delete from charged_bytes_pending returning user_id, bytes)
        insert into charged_bytes (user_id, bytes)
        select user_id, sum(bytes) from taken group by user_id having sum(bytes) <> 0 order by user_id
        on conflict (user_id) do update set bytes = charged_bytes.bytes + excluded.bytes;
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create constraint trigger charged_bytes_pending_fold after insert on charged_bytes_pending
    deferrable initially deferred for each row execute function charged_bytes_fold()`.execute(db);

  for (const { table, charged } of TABLES) {
    await sql`drop trigger ${sql.raw(`${table}_charged`)} on ${sql.table(table)}`.execute(db);
    await sql`drop function ${sql.raw(`${table}_charged_change`)}()`.execute(db);
    const added = `select owner_id, file_size as bytes from new_rows where ${charged('new_rows')}`;
    const taken = `select owner_id, -file_size as bytes from old_rows where ${charged('old_rows')}`;
    // Transition tables allow one event a trigger, so the insert and delete triggers share one function.
    await sql`
      create function ${sql.raw(`${table}_charged_statement`)}() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          insert into charged_bytes_pending (user_id, bytes)
          select owner_id, sum(bytes) from (${sql.raw(added)}) d group by owner_id having sum(bytes) <> 0;
        else
          insert into charged_bytes_pending (user_id, bytes)
          select owner_id, sum(bytes) from (${sql.raw(taken)}) d group by owner_id having sum(bytes) <> 0;
        end if;
        if found then
          perform set_config(${sql.lit(PENDING_FLAG)}, 'yes', true);
        end if;
        return null;
      end $$`.execute(db);
    for (const [event, referencing] of [
      ['insert', 'new table as new_rows'],
      ['delete', 'old table as old_rows'],
    ] as const)
      await sql`
        create trigger ${sql.raw(`${table}_charged_${event}`)} after ${sql.raw(event)} on ${sql.table(table)}
        referencing ${sql.raw(referencing)} for each statement execute function ${sql.raw(`${table}_charged_statement`)}()`.execute(db);
    // Updates: a trigger a row, but only on rows whose charge moves (the WHEN is tested without calling any
    // function), so a folder's roll-up (every upload updates its ancestors' sizes) or a rename costs nothing;
    // each such row appends its two deltas (no lock shared with another writer, linear for a bulk update).
    const columns = table === 'file_entries' ? 'file_size, type, owner_id' : 'file_size, owner_id';
    const tuple = (row: string) =>
      `(${columns
        .split(', ')
        .map((column) => `${row}.${column}`)
        .join(', ')})`;
    await sql`
      create function ${sql.raw(`${table}_charged_row`)}() returns trigger language plpgsql as $$
      begin
        insert into charged_bytes_pending (user_id, bytes)
        select user_id, bytes from (values (old.owner_id, -old.file_size, ${sql.raw(charged('old'))}), (new.owner_id, new.file_size, ${sql.raw(charged('new'))}))
          moved (user_id, bytes, charged) where charged and bytes <> 0;
        if found then
          perform set_config(${sql.lit(PENDING_FLAG)}, 'yes', true);
        end if;
        return null;
      end $$`.execute(db);
    await sql`
      create trigger ${sql.raw(`${table}_charged_update`)} after update of ${sql.raw(columns)} on ${sql.table(table)} for each row
      when (${sql.raw(`(${charged('old')} or ${charged('new')}) and ${tuple('old')} is distinct from ${tuple('new')}`)})
      execute function ${sql.raw(`${table}_charged_row`)}()`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const { table, charged } of TABLES) {
    for (const event of ['insert', 'delete', 'update']) await sql`drop trigger ${sql.raw(`${table}_charged_${event}`)} on ${sql.table(table)}`.execute(db);
    await sql`drop function ${sql.raw(`${table}_charged_statement`)}()`.execute(db);
    await sql`drop function ${sql.raw(`${table}_charged_row`)}()`.execute(db);
    // The row triggers of 2026_11_29_000300, as they were.
    await sql`
      create function ${sql.raw(`${table}_charged_change`)}() returns trigger language plpgsql as $$
      begin
        if tg_op in ('UPDATE', 'DELETE') and ${sql.raw(charged('old'))} then
          update charged_bytes set bytes = bytes - old.file_size where user_id = old.owner_id;
        end if;
        if tg_op in ('UPDATE', 'INSERT') and ${sql.raw(charged('new'))} then
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
  await sql`drop table charged_bytes_pending`.execute(db);
  await sql`drop function charged_bytes_fold()`.execute(db);
}
