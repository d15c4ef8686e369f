import type { Database as SqliteDatabase, Statement } from 'better-sqlite3';
import type { SqliteDatabase as KyselySqliteDatabase } from 'kysely';
import { wantsTuples } from './tuples.js';

/** Enough for every distinct statement the app sends, with room for `in (?, ?, …)` variants. */
const DEFAULT_SIZE = 500;

/**
 * Kysely's SQLite driver prepares every statement anew; on a listing that was
 * a seventh of the busy time. This keeps prepared statements by their SQL text
 * (least recently used goes first). better-sqlite3 re-prepares a statement by
 * itself when the schema changes, so migrations need nothing here.
 *
 * A statement still being iterated (a streamed query) is busy and cannot be
 * run again; such a call gets a fresh one that is not cached.
 *
 * A statement marked with TUPLES_MARK (db/tuples.ts) answers rows as arrays.
 */
export function cachingStatements(db: SqliteDatabase, size = DEFAULT_SIZE): KyselySqliteDatabase & { cached(): number } {
  const statements = new Map<string, Statement>();
  const fresh = (sql: string) => {
    const statement = db.prepare(sql);
    return wantsTuples(sql) ? statement.raw(true) : statement;
  };
  return {
    close: () => {
      statements.clear();
      db.close();
    },
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (statement) {
        if (statement.busy) return fresh(sql);
        // Re-inserting moves it to the young end of the Map's order.
        statements.delete(sql);
        statements.set(sql, statement);
        return statement;
      }
      statement = fresh(sql);
      statements.set(sql, statement);
      if (statements.size > size) statements.delete(statements.keys().next().value!);
      return statement;
    },
    cached: () => statements.size,
  };
}
