import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import { isDeepStrictEqual } from 'node:util';
import type { Database } from './types.js';
import { TUPLES_MARK, type Tuple } from './tuples.js';
import { connectionNow } from './watched-dialect.js';

/** Stands for one named value while a statement is compiled; each run puts the call's own value in its place. */
class Slot {
  constructor(readonly name: string) {}
}

/**
 * Whether each run also builds its statement the usual way and checks that the
 * compiled one is the same (tests and development, as the response serializer
 * is checked): the whole suite then proves every shape key names one statement.
 */
const checked = process.env.NODE_ENV === 'test' || process.env.NODE_ENV === 'development';

export class PreparedShapeError extends Error {
  constructor(key: string, expected: CompiledQuery, got: { sql: string; parameters: readonly unknown[] }) {
    super(
      `The statement compiled once for shape "${key}" differs from the one built for this call:\n` +
        ` once:  ${got.sql} ${JSON.stringify(got.parameters)}\n built: ${expected.sql} ${JSON.stringify(expected.parameters)}`,
    );
    this.name = 'PreparedShapeError';
  }
}

/**
 * A statement built and compiled once per database and shape, then run with
 * each call's values: kysely rebuilds its immutable tree and compiles it again
 * on every call, which was a tenth of a listing request's time (issue 38 §3).
 *
 * `build` must decide the statement's shape from `shape` alone and use each of
 * `values` only as a value (a comparison's operand), never to choose
 * between branches: whatever picks a branch belongs in `keyOf`. A limit is
 * part of the shape too: SQLite's is written into the statement
 * (db/inline-limit.ts). The checked mode fails any call where that does not hold.
 */
export function prepared<V extends Record<string, unknown>, S, Row>(
  keyOf: (shape: S) => string,
  build: (db: Kysely<Database>, values: V, shape: S) => Compilable<Row>,
): (db: Kysely<Database>, values: V, shape: S) => Promise<Row[]> {
  return compiledOnce(keyOf, build, '') as (db: Kysely<Database>, values: V, shape: S) => Promise<Row[]>;
}

/**
 * `prepared`, answering each row as an array in the order of the statement's
 * select list (db/tuples.ts): for a hot page whose caller builds only the
 * objects it needs. `build` should name its columns one by one (a `*` is in
 * the table's own order, which a migration can change).
 */
export function preparedTuples<V extends Record<string, unknown>, S>(
  keyOf: (shape: S) => string,
  build: (db: Kysely<Database>, values: V, shape: S) => Compilable<unknown>,
): (db: Kysely<Database>, values: V, shape: S) => Promise<Tuple[]> {
  return compiledOnce(keyOf, build, TUPLES_MARK) as (db: Kysely<Database>, values: V, shape: S) => Promise<Tuple[]>;
}

function compiledOnce<V extends Record<string, unknown>, S>(
  keyOf: (shape: S) => string,
  build: (db: Kysely<Database>, values: V, shape: S) => Compilable<unknown>,
  mark: string,
): (db: Kysely<Database>, values: V, shape: S) => Promise<unknown[]> {
  // Per database: the SQL differs between dialects, and tests build many apps. Keyed by the executor's adapter, made
  // once per database and handed to each of its transactions: keyed by the Kysely object, every transaction compiled
  // its statements anew, as if none were prepared (a PUT's are mostly in its transaction). A plugin (withPlugin,
  // withSchema) rewrites statements, so a database with one keeps its own.
  const templates = new WeakMap<object, Map<string, CompiledQuery>>();
  // Not an async function: on SQLite most statements answer at once, and one promise less a statement counts
  // (a throw below still becomes a rejection).
  return (db, values, shape) => {
    try {
      return run(db, values, shape);
    } catch (error) {
      return Promise.reject(error as Error);
    }
  };

  function run(db: Kysely<Database>, values: V, shape: S): Promise<unknown[]> {
    const key = keyOf(shape);
    const executor = db.getExecutor();
    const database = executor.plugins.length ? db : executor.adapter;
    let byKey = templates.get(database);
    if (!byKey) templates.set(database, (byKey = new Map()));
    let template = byKey.get(key);
    if (!template) {
      const slots = Object.fromEntries(Object.keys(values).map((name) => [name, new Slot(name)])) as unknown as V;
      const compiled = build(db, slots, shape).compile();
      template = { ...compiled, sql: mark + compiled.sql };
      byKey.set(key, template);
    }
    const parameters = template.parameters.map((p) => (p instanceof Slot ? values[p.name] : p));
    const query: CompiledQuery = { query: template.query, queryId: template.queryId, sql: template.sql, parameters };
    if (checked) {
      const built = build(db, values, shape).compile();
      const expected = { ...built, sql: mark + built.sql };
      if (expected.sql !== query.sql || !isDeepStrictEqual(expected.parameters, parameters)) throw new PreparedShapeError(key, expected, query);
    }
    // On SQLite's connection at once when it is free or db's transaction holds it (see connectionNow); else
    // through Kysely, which waits.
    const now = connectionNow(db);
    return now ? Promise.resolve(now.runNow(query).rows) : db.executeQuery(query).then((result) => result.rows);
  }
}
