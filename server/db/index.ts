import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect } from 'kysely';
import { InlineLimitSqliteDialect } from './inline-limit.js';
import pg from 'pg';
import type { Config } from '../config.js';
import type { Database } from './types.js';
import { InProcessAccessChanges, type AccessChanges } from './changes.js';
import { registerNameContains } from './name-fold.js';
import { BackgroundCheckpointer } from './checkpointer.js';
import { cachingStatements, runOn } from './statement-cache.js';
import { tupleAwarePool } from './tuples.js';
import { watchedDialect, type StatementCounter } from './watched-dialect.js';

export type Dialect = Config['database']['dialect'];

export interface PoolUse {
  max: number;
  total: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
}

const POOL_MAX = 10;

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  /** Published on every write that can change who a caller is or what they may do (access caches listen). */
  changes: AccessChanges;
  /** Goes up on every write here, or elsewhere as the bus reports: equal versions mean equal data (listing ETags). */
  version(): number;
  /** Statements sent so far (the per-request budget tests read it). */
  counter: StatementCounter;
  /** Checks that the database answers (for /health). */
  ping(): Promise<void>;
  /** The database server's name and version, as an admin reads it on the Health page. */
  serverVersion(): Promise<string>;
  /** PostgreSQL's connection pool right now (metrics); null for SQLite, which has one connection. */
  poolUse(): PoolUse | null;
  destroy(): Promise<void>;
}

// Timestamps leave PostgreSQL as ISO-8601 strings, the same shape SQLite stores,
// so services and presenters never see a Date on one dialect and a string on the other.
const TIMESTAMPTZ_OID = 1184;
const TIMESTAMP_OID = 1114;
const INT8_OID = 20;
pg.types.setTypeParser(TIMESTAMPTZ_OID, (value) => new Date(value).toISOString());
pg.types.setTypeParser(TIMESTAMP_OID, (value) => new Date(`${value}Z`).toISOString());
// count(*) is bigint in PostgreSQL; our counts fit comfortably in a JS number.
pg.types.setTypeParser(INT8_OID, (value) => Number(value));

export function createDb(config: Config['database'], changes: AccessChanges = new InProcessAccessChanges()): Db {
  const counter: StatementCounter = { statements: 0 };
  let written = 0;
  changes.subscribe((topic) => {
    if (topic === 'data') written += 1;
  });
  const version = () => written;
  if (config.dialect === 'postgres') {
    const pool = new pg.Pool({ connectionString: config.url, max: POOL_MAX });
    // An idle client can lose its connection (a database restart, a network blip); without a
    // listener that error would crash the process. The pool replaces the client on next use.
    pool.on('error', (error) => console.error('PostgreSQL idle client error:', error.message));
    const kysely = new Kysely<Database>({ dialect: watchedDialect(new PostgresDialect({ pool: tupleAwarePool(pool) }), changes, counter, 'postgresql') });
    return {
      kysely,
      dialect: 'postgres',
      changes,
      counter,
      version,
      ping: async () => {
        await pool.query('select 1');
      },
      serverVersion: async () => `PostgreSQL ${(await pool.query<{ server_version: string }>('show server_version')).rows[0]!.server_version}`,
      poolUse: () => ({ max: POOL_MAX, total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      destroy: () => kysely.destroy(),
    };
  }

  if (config.file !== ':memory:') fs.mkdirSync(path.dirname(config.file), { recursive: true });
  const sqlite = new SqliteDatabase(config.file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  // A broad name search tests each row's name as the trigram index would (db/search.ts).
  registerNameContains(sqlite);
  // Checkpoints off the event loop (db/checkpointer.ts); an in-memory database has no WAL.
  const checkpointer =
    config.file === ':memory:'
      ? null
      : new BackgroundCheckpointer(sqlite, path.resolve(config.file), {
          onError: (error) => process.emitWarning(`SQLite's checkpoint thread stopped (${error.message}); the app's connection checkpoints again`),
        });
  const statements = cachingStatements(sqlite);
  const kysely = new Kysely<Database>({
    dialect: watchedDialect(new InlineLimitSqliteDialect({ database: statements }), changes, counter, 'sqlite', runOn(statements)),
  });
  return {
    kysely,
    dialect: 'sqlite',
    changes,
    counter,
    version,
    ping: async () => {
      sqlite.prepare('select 1').get();
    },
    serverVersion: async () => `SQLite ${(sqlite.prepare('select sqlite_version() as v').get() as { v: string }).v}`,
    poolUse: () => null,
    destroy: async () => {
      await checkpointer?.stop();
      await kysely.destroy();
    },
  };
}
