import { sql, type Kysely } from 'kysely';

/**
 * Indexes that match the listing queries column for column — scope, folder,
 * trash state, then the sort keys with the id tie-breaker — so a page of a
 * folder with 100k entries is an index range read that stops after one page
 * instead of a sort of the whole folder. Expression indexes are plain SQL,
 * the same on both dialects.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index file_entries_list_updated_index on file_entries (owner_id, workspace_id, parent_id, deleted_at, updated_at, id)`.execute(db);
  await sql`create index file_entries_list_created_index on file_entries (owner_id, workspace_id, parent_id, deleted_at, created_at, id)`.execute(db);
  await sql`create index file_entries_list_name_index on file_entries (owner_id, workspace_id, parent_id, deleted_at, (case when type = 'folder' then 0 else 1 end), (lower(name)), id)`.execute(
    db,
  );
  await sql`create index file_entries_recent_index on file_entries (owner_id, workspace_id, deleted_at, created_at, id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const name of ['file_entries_recent_index', 'file_entries_list_name_index', 'file_entries_list_created_index', 'file_entries_list_updated_index']) {
    await sql`drop index ${sql.id(name)}`.execute(db);
  }
}
