import { PostgresAdapter, sql, type CreateTableBuilder, type Kysely } from 'kysely';

/**
 * Column helpers shared by migrations. Like the migrations themselves they are
 * frozen: a change here would rewrite history, so add new helpers instead.
 */
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** Auto-incrementing integer primary key on both dialects. */
export function withId<T extends string>(db: Kysely<any>, table: CreateTableBuilder<T, never>) {
  return isPostgres(db) ? table.addColumn('id', 'serial', (c) => c.primaryKey()) : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

/** timestamptz on PostgreSQL, ISO-8601 text on SQLite. */
export function timestampType(db: Kysely<any>) {
  return isPostgres(db) ? sql`timestamptz` : sql`text`;
}
