import { sql, type Kysely } from 'kysely';

/**
 * Finding whether a name is free in a folder (every new file, folder, move,
 * copy and restore asks) is a look-up in this index: the folder and the name
 * lead, so the probe reads the matching rows only, however full the folder.
 * Partial (live entries only): trashed entries keep their names without
 * taking them. Not unique: databases may already hold duplicates from before
 * names were claimed under a folder lock (db/locks.ts lockFolders).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index file_entries_child_name_index on file_entries (parent_id, name, owner_id, workspace_id) where deleted_at is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index file_entries_child_name_index`.execute(db);
}
