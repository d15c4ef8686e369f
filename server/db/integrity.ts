import { sql, type Kysely } from 'kysely';
import type { Dialect } from './index.js';
import type { Database } from './types.js';

/**
 * The database's own check of its files. SQLite's `PRAGMA quick_check`
 * reads every page and index entry (not the slower cross-checks of
 * integrity_check); PostgreSQL guards its pages itself (WAL, checksums when
 * enabled) and offers deeper checks only through the amcheck extension,
 * which an operator runs by hand: nothing to do here.
 */
export async function databaseProblems(db: Kysely<Database>, dialect: Dialect): Promise<string[]> {
  if (dialect !== 'sqlite') return [];
  try {
    const { rows } = await sql<{ quick_check: string }>`pragma quick_check`.execute(db);
    return rows.map((row) => row.quick_check).filter((line) => line !== 'ok');
  } catch (error) {
    // A damaged file can stop the check itself ("database disk image is malformed").
    return [error instanceof Error ? error.message : String(error)];
  }
}
