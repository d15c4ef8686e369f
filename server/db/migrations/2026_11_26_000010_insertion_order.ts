import { sql, type Kysely } from 'kysely';
import { isPostgres } from './schema-helpers.js';

/**
 * A `seq` for the two time-ordered tables whose ids are random strings
 * (notifications: a UUID; workspace invites: the link's bearer token), so that
 * their lists follow insertion even for rows written in the same millisecond.
 *
 * The number comes from the database (an identity on PostgreSQL, AUTOINCREMENT
 * on SQLite): several processes may write to one PostgreSQL database, and a
 * sequence is the only counter they all share; their clocks need not agree.
 * Existing rows are numbered in their old order (created_at, then id).
 *
 * SQLite can add an AUTOINCREMENT column only as the INTEGER PRIMARY KEY, so
 * there the table is rebuilt with `seq` as its key and `id` unique; on
 * PostgreSQL the column is added and `id` stays the key.
 *
 * The admin activity log now sorts by its id alone (the same kind of counter),
 * so its (created_at, id) index has nothing left to serve.
 */
type Index = readonly [name: string, columns: string];

interface Shape {
  /** The SQLite rebuild's columns besides `seq`, as the earlier migrations made them. */
  columns: string;
  names: string;
  /** Indexes the seq index replaces. */
  dropped: Index[];
  seqIndex: Index;
  /** The table's other indexes, which a rebuild must make again. */
  kept: Index[];
}

const TABLES: Record<string, Shape> = {
  notifications: {
    columns: `id varchar(36) not null unique,
      user_id integer not null references users (id) on delete cascade,
      type varchar(64) not null,
      data text not null,
      read_at text,
      created_at text not null`,
    names: 'id, user_id, type, data, read_at, created_at',
    // The list no longer sorts by created_at.
    dropped: [['notifications_user_created_index', '(user_id, created_at)']],
    seqIndex: ['notifications_user_seq_index', '(user_id, seq)'],
    kept: [['notifications_user_read_index', '(user_id, read_at)']],
  },
  workspace_invites: {
    columns: `id varchar(64) not null unique,
      workspace_id integer not null references workspaces (id) on delete cascade,
      email varchar(320) not null,
      role_id integer references roles (id) on delete set null,
      invited_by integer references users (id) on delete set null,
      created_at text not null,
      updated_at text not null,
      expires_at text not null,
      constraint workspace_invites_workspace_email_unique unique (workspace_id, email)`,
    names: 'id, workspace_id, email, role_id, invited_by, created_at, updated_at, expires_at',
    dropped: [],
    seqIndex: ['workspace_invites_workspace_seq_index', '(workspace_id, seq)'],
    kept: [['workspace_invites_email_index', '(email)']],
  },
};

const createIndex = (db: Kysely<any>, table: string, [name, columns]: Index) =>
  sql`create index ${sql.id(name)} on ${sql.id(table)} ${sql.raw(columns)}`.execute(db);

export async function up(db: Kysely<any>): Promise<void> {
  for (const [table, shape] of Object.entries(TABLES)) {
    if (isPostgres(db)) {
      await sql`alter table ${sql.id(table)} add column seq bigint`.execute(db);
      await sql`update ${sql.id(table)} t set seq = o.n
        from (select id, row_number() over (order by created_at, id) as n from ${sql.id(table)}) o where o.id = t.id`.execute(db);
      await sql`alter table ${sql.id(table)} alter column seq set not null`.execute(db);
      // ALWAYS: the application never picks a number itself.
      await sql`alter table ${sql.id(table)} alter column seq add generated always as identity`.execute(db);
      await sql`select setval(pg_get_serial_sequence(${table}, 'seq'), coalesce((select max(seq) from ${sql.id(table)}), 0) + 1, false)`.execute(db);
      await sql`alter table ${sql.id(table)} add constraint ${sql.id(`${table}_seq_unique`)} unique (seq)`.execute(db);
    } else {
      const next = `${table}_next`;
      await sql`create table ${sql.id(next)} (seq integer primary key autoincrement, ${sql.raw(shape.columns)})`.execute(db);
      await sql`insert into ${sql.id(next)} (${sql.raw(shape.names)})
        select ${sql.raw(shape.names)} from ${sql.id(table)} order by created_at, id`.execute(db);
      await sql`drop table ${sql.id(table)}`.execute(db);
      await sql`alter table ${sql.id(next)} rename to ${sql.id(table)}`.execute(db);
      for (const index of shape.kept) await createIndex(db, table, index);
    }
    // (The rebuild above already dropped these with the old table.)
    for (const [name] of shape.dropped) await sql`drop index if exists ${sql.id(name)}`.execute(db);
    await createIndex(db, table, shape.seqIndex);
  }
  await sql`drop index admin_activity_created_index`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await createIndex(db, 'admin_activity', ['admin_activity_created_index', '(created_at, id)']);
  for (const [table, shape] of Object.entries(TABLES)) {
    await sql`drop index ${sql.id(shape.seqIndex[0])}`.execute(db);
    if (isPostgres(db)) {
      await sql`alter table ${sql.id(table)} drop column seq`.execute(db);
    } else {
      const previous = `${table}_previous`;
      await sql`create table ${sql.id(previous)} (${sql.raw(shape.columns.replace('not null unique', 'primary key'))})`.execute(db);
      await sql`insert into ${sql.id(previous)} (${sql.raw(shape.names)}) select ${sql.raw(shape.names)} from ${sql.id(table)}`.execute(db);
      await sql`drop table ${sql.id(table)}`.execute(db);
      await sql`alter table ${sql.id(previous)} rename to ${sql.id(table)}`.execute(db);
      for (const index of shape.kept) await createIndex(db, table, index);
    }
    for (const index of shape.dropped) await createIndex(db, table, index);
  }
}
