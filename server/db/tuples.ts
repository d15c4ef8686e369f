import type pg from 'pg';
import type { PostgresPool, PostgresPoolClient } from 'kysely';

/**
 * A statement whose SQL starts with this comment answers its rows as arrays,
 * in the order of its select list, on both dialects (better-sqlite3's raw
 * mode, pg's `rowMode: 'array'`). Building a row object of 30 named columns
 * in the driver was about half of a listing page's statement time on SQLite
 * (issue 38 §3); a caller that knows its select list builds its own objects,
 * with only the fields it reads, far cheaper. The comment travels through
 * Kysely and the watched driver like any SQL, so such a statement is counted,
 * traced and serialised on SQLite's one connection like every other.
 */
export const TUPLES_MARK = '/* tuples */ ';

export const wantsTuples = (sql: string): boolean => sql.startsWith(TUPLES_MARK);

/** A row of a statement marked with TUPLES_MARK. */
export type Tuple = readonly unknown[];

/**
 * A pg pool whose clients honour TUPLES_MARK. Kysely keeps one connection per
 * client object, so each client gets one wrapper for its life.
 */
export function tupleAwarePool(pool: pg.Pool): PostgresPool {
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    let wrapper = wrappers.get(client);
    if (!wrapper) {
      const query = (statement: string | pg.Submittable, parameters?: unknown[]) => {
        if (typeof statement !== 'string') return client.query(statement); // a cursor (streamed rows)
        return wantsTuples(statement) ? client.query({ text: statement, values: parameters, rowMode: 'array' }) : client.query(statement, parameters);
      };
      wrapper = {
        query: query as unknown as PostgresPoolClient['query'],
        release: () => client.release(),
      };
      wrappers.set(client, wrapper);
    }
    return wrapper;
  };
  return {
    connect: async () => wrap(await pool.connect()),
    end: () => pool.end(),
  };
}
