import { sql } from 'kysely';
import type { Executor } from '../modules/drive/repository.js';
import type { Dialect } from './index.js';

/**
 * Serialises transactions that read-then-write one user's totals (quota
 * reservations). PostgreSQL takes a row lock on the user; SQLite already runs
 * one write transaction at a time, so it needs nothing.
 */
export async function lockUserRow(trx: Executor, dialect: Dialect, userId: number): Promise<void> {
  if (dialect === 'postgres') await sql`select id from users where id = ${userId} for update`.execute(trx);
}
