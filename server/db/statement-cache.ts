import type { Database as SqliteDatabase, Statement } from 'better-sqlite3';
import type { CompiledQuery, SqliteDatabase as KyselySqliteDatabase, QueryResult } from 'kysely';
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

/**
 * What Kysely's SQLite connection does with a statement (rows of a reader;
 * changes and the last row id of a writer), answered synchronously, for the
 * statements that run without Kysely's connection machinery (db/watched-dialect.ts,
 * connectionNow).
 */
export function runOn(database: Pick<KyselySqliteDatabase, 'prepare'>): (query: CompiledQuery) => QueryResult<unknown> {
  return ({ sql, parameters }) => {
    const statement = database.prepare(sql);
    if (statement.reader) return { rows: statement.all(parameters) as unknown[] };
    const { changes, lastInsertRowid } = statement.run(parameters);
    return { rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) };
  };
}
