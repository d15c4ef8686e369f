import { sql, type Kysely } from 'kysely';

/**
 * Two indexes on file_entries that no statement reads: every new file still
 * had to write them (a small WebDAV PUT's insert maintains each index of the
 * table). No query filters on (owner, extension), and every order by
 * created_at within an owner goes through file_entries_recent_index or
 * file_entries_list_created_index, which lead with the owner too. Found by
 * replaying every statement of the drive, search, sharing, workspace,
 * version, WebDAV, activity, access, admin, billing, upload, share-link,
 * recovery, storage and performance suites under EXPLAIN QUERY PLAN: neither
 * index was chosen once; tests/server/performance/query-plans.test.ts pins
 * that no listing, search or quota query reads the whole table without them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists file_entries_owner_created_index`.execute(db);
  await sql`drop index if exists file_entries_owner_extension_index`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`create index file_entries_owner_created_index on file_entries (owner_id, created_at)`.execute(db);
  await sql`create index file_entries_owner_extension_index on file_entries (owner_id, extension)`.execute(db);
}
