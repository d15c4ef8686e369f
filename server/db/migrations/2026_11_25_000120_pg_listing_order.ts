import { sql, type Kysely } from 'kysely';
import { isPostgres } from './schema-helpers.js';

/**
 * PostgreSQL only: partial indexes that let a listing page in the default sort
 * (updated, newest first) be read in index order and stop after one page.
 *
 * The composite listing indexes (000005) serve SQLite, which treats
 * `workspace_id IS NULL`, `parent_id IS NULL` and `deleted_at IS NULL` as
 * fixed prefixes of the index order. PostgreSQL fixes only `=` prefixes, so it
 * walked the owner's rows by date instead and filtered: 6–8 ms for a root of
 * 90k whose newest 10k rows sit in a subfolder, 0.3 ms with these. The IS NULL
 * conditions move into the indexes' predicates; each space and each kind of
 * listing (root, folder) gets the index whose leading columns are equalities.
 */
const INDEXES = [
  ['file_entries_pg_root_updated_index', '(owner_id, updated_at, id) where workspace_id is null and parent_id is null and deleted_at is null'],
  ['file_entries_pg_folder_updated_index', '(owner_id, parent_id, updated_at, id) where workspace_id is null and deleted_at is null'],
  ['file_entries_pg_ws_root_updated_index', '(owner_id, workspace_id, updated_at, id) where parent_id is null and deleted_at is null'],
  ['file_entries_pg_ws_folder_updated_index', '(owner_id, workspace_id, parent_id, updated_at, id) where deleted_at is null'],
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const [name, definition] of INDEXES) await sql`create index ${sql.id(name)} on file_entries ${sql.raw(definition)}`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const [name] of INDEXES) await sql`drop index ${sql.id(name)}`.execute(db);
}
