import { sql, type Kysely } from 'kysely';

/**
 * What a payer is charged (drive/repository.ts chargedBytes) is summed before
 * every upload is reserved: with the owner, the type and the size in one
 * index the sum reads the index alone, not each file's row (half the time
 * at ten thousand files on SQLite). Still a sum over the payer's files: a
 * running total would make it constant, at the price of keeping it right in
 * every writer of sizes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index file_entries_charged_index on file_entries (owner_id, type, file_size)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index file_entries_charged_index`.execute(db);
}
