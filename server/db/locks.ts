import { sql, type Kysely } from 'kysely';
import type { Dialect } from './index.js';
import type { Database } from './types.js';

/**
 * Serialises transactions that read-then-write one user's totals (quota
 * reservations). PostgreSQL takes a row lock on the user; SQLite already runs
 * one write transaction at a time, so it needs nothing.
 */
export async function lockUserRow(trx: Kysely<Database>, dialect: Dialect, userId: number): Promise<void> {
  if (dialect === 'postgres') await sql`select id from users where id = ${userId} for update`.execute(trx);
}
