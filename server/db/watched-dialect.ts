import { ControlledTransaction } from 'kysely';
import type {
  CompiledQuery,
  DatabaseConnection,
  DatabaseIntrospector,
  Dialect,
  DialectAdapter,
  Driver,
  Kysely,
  QueryCompiler,
  QueryResult,
  TransactionSettings,
} from 'kysely';
import { childSpan, leafSpan, tracingOn } from '../observability/tracing.js';
import { changesAccess, writes, type AccessChanges } from './changes.js';

/**
 * A dialect that publishes a change on every write ('data'), and an access
 * change when the write touches a table that access caches read from. Watching the driver rather than calling
 * an invalidation from each service means no writer can forget (admin edits,
 * suspension, logout, password resets, role seeding…), raw SQL included.
 *
 * Inside a transaction the change is published at once and again after the
 * commit: a reader on another connection (PostgreSQL) may have cached the old
 * rows between the write and the commit, and the second publish drops them.
 */
export function watchedDialect(
  inner: Dialect,
  changes: AccessChanges,
  counter: StatementCounter = { statements: 0 },
  system: 'sqlite' | 'postgresql' = 'sqlite',
  /** SQLite: runs a statement on the connection synchronously (better-sqlite3 does), for `connectionNow`. */
  runSync?: RunSync,
): Dialect {
  // Kysely makes one adapter and one driver per database: the adapter (which its transactions share) leads to the driver.
  let driver: WatchedDriver | null = null;
  return {
    createAdapter: (): DialectAdapter => {
      const adapter = inner.createAdapter();
      driverOf.set(adapter, () => driver);
      return adapter;
    },
    createIntrospector: (db: Kysely<unknown>): DatabaseIntrospector => inner.createIntrospector(db),
    createQueryCompiler: (): QueryCompiler => inner.createQueryCompiler(),
    createDriver: () => (driver = new WatchedDriver(inner.createDriver(), changes, counter, system, runSync)),
  };
}

const driverOf = new WeakMap<DialectAdapter, () => WatchedDriver | null>();

/** Runs one compiled statement to its end before it returns (better-sqlite3). */
export type RunSync = (query: CompiledQuery) => QueryResult<unknown>;

/**
 * SQLite's one connection, for a statement to run on at once and
 * synchronously (db/prepared.ts), or null (PostgreSQL, a plugin, or a caller
 * other than `db` holding the connection). Kysely's way to a connection (the
 * provider, the runtime driver, the mutex, the release, and in a transaction
 * its own provider's queue) is about fifteen promises a statement, as many as
 * the rest of a listing's request makes (issue 38 §3), and most of a WebDAV
 * PUT's statements are in a group commit's transaction (issue 37).
 *
 * Outside a transaction: when nothing holds the connection. better-sqlite3
 * runs a statement synchronously, so one that starts while the connection is
 * free ends before anyone else can take it, and no transaction can be open
 * then: every one holds the connection.
 *
 * In a transaction: SQLite has one connection, and a transaction object
 * exists only from its begin to its commit or rollback, holding that
 * connection throughout; so while the connection is in a transaction held by
 * one caller, it is `db`'s. Its statements then run in the order they are
 * called, where Kysely queues them: two started together without awaiting
 * the first have no order either way. A controlled transaction used after its
 * end goes Kysely's way, which refuses it; a callback's transaction
 * (`transaction().execute`) used after its callback is a bug either way.
 */
export function connectionNow<DB>(db: Kysely<DB>): WatchedConnection | null {
  const executor = db.getExecutor();
  if (executor.plugins.length) return null;
  const driver = driverOf.get(executor.adapter)?.();
  if (!driver) return null;
  if (!db.isTransaction) return driver.idleConnection();
  // A controlled transaction that ended goes Kysely's way, which refuses it.
  if (db instanceof ControlledTransaction && (db.isCommitted || db.isRolledBack)) return null;
  return driver.transactionConnection();
}

/** How many statements went to the database: what tests hold the per-request budget to. */
export interface StatementCounter {
  statements: number;
  /**
   * When a test or bench sets it, every statement is kept here (the query-plan checks replay them under EXPLAIN),
   * with how long a read took from the caller's side, the driver included (the benches' cost breakdown).
   */
  log?: { sql: string; parameters: readonly unknown[]; ms?: number }[];
}

interface StatementSpan {
  operation: string;
  attributes: Readonly<Record<string, string>>;
}

/**
 * The same few hundred statement texts come back all the time (prepared
 * shapes): their span's name and attributes are made once, per database
 * system (keyed by the text alone, whose hash the string keeps).
 */
const statementSpans = { sqlite: new Map<string, StatementSpan>(), postgresql: new Map<string, StatementSpan>() };

function statementSpan(system: 'sqlite' | 'postgresql', sql: string): StatementSpan {
  const known = statementSpans[system].get(sql);
  if (known) return known;
  // The statement as Kysely compiled it: values are placeholders, so no user data enters the trace.
  const operation = /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? 'QUERY';
  const made = { operation, attributes: Object.freeze({ 'db.system.name': system, 'db.operation.name': operation, 'db.query.text': sql }) };
  // Statements built with a varying number of placeholders (IN lists) must not grow it without end.
  if (statementSpans[system].size >= 2048) statementSpans[system].clear();
  statementSpans[system].set(sql, made);
  return made;
}

/** What `before` noted of a statement, for `after`. */
interface Noted {
  logged: { ms?: number } | null;
  write: boolean;
  access: boolean;
}

/** A statement's span name and attributes, as `leafSpan` and `childSpan` take them. */
function spanOf(system: 'sqlite' | 'postgresql', sql: string): [string, Readonly<Record<string, string>>] {
  const { operation, attributes } = statementSpan(system, sql);
  return [operation, attributes];
}

export class WatchedConnection implements DatabaseConnection {
  inTransaction = false;
  dirty = false;
  dirtyAccess = false;

  constructor(
    readonly inner: DatabaseConnection,
    private readonly changes: AccessChanges,
    private readonly counter: StatementCounter,
    private readonly system: 'sqlite' | 'postgresql',
    private readonly runSync?: RunSync,
  ) {}

  /**
   * `executeQuery` without a promise, for `connectionNow`'s callers: the same
   * count, log, change publishing and span, the statement run to its end here.
   */
  runNow<R>(compiledQuery: CompiledQuery): QueryResult<R> {
    const end = tracingOn() ? childSpan(...spanOf(this.system, compiledQuery.sql)) : null;
    const noted = this.before(compiledQuery);
    const start = noted.logged ? performance.now() : 0;
    try {
      const result = this.runSync!(compiledQuery) as QueryResult<R>;
      end?.();
      return result;
    } catch (error) {
      end?.(error);
      throw error;
    } finally {
      this.after(noted, start);
    }
  }

  executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    if (!tracingOn()) return this.execute(compiledQuery);
    return leafSpan(...spanOf(this.system, compiledQuery.sql), () => this.execute<R>(compiledQuery));
  }

  private async execute<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const noted = this.before(compiledQuery);
    // A read nobody logs: the connection's own promise, nothing to do after it.
    if (!noted.write && !noted.logged) return this.inner.executeQuery<R>(compiledQuery);
    const start = noted.logged ? performance.now() : 0;
    try {
      return await this.inner.executeQuery<R>(compiledQuery);
    } finally {
      this.after(noted, start);
    }
  }

  /**
   * What every statement notes before it runs, whichever way: the count, the
   * log entry, and a write's change, published at once (and, in a
   * transaction, again at the commit).
   */
  private before(compiledQuery: CompiledQuery): Noted {
    this.counter.statements += 1;
    const logged = this.counter.log ? { sql: compiledQuery.sql, parameters: compiledQuery.parameters, ms: 0 } : null;
    if (logged) this.counter.log!.push(logged);
    const write = writes(compiledQuery.sql);
    const access = write && changesAccess(compiledQuery.sql);
    if (write) {
      if (this.inTransaction) {
        this.dirty = true;
        this.dirtyAccess ||= access;
      }
      this.publish(access);
    }
    return { logged, write, access };
  }

  /** After the statement: a read's time in the log; a write outside a transaction published again. */
  private after({ logged, write, access }: Noted, start: number): void {
    if (logged && !write) logged.ms = performance.now() - start;
    // A reader that ran while the statement did could have cached the rows it replaced.
    if (write && !this.inTransaction) this.publish(access);
  }

  publish(access: boolean): void {
    if (access) this.changes.publish('access');
    this.changes.publish('data');
  }

  streamQuery<R>(compiledQuery: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(compiledQuery, chunkSize);
  }
}

class WatchedDriver implements Driver {
  private readonly wrappers = new WeakMap<DatabaseConnection, WatchedConnection>();
  /** Callers holding a connection now (acquired, not yet released). */
  private held = 0;
  /** SQLite's one connection, once Kysely acquired it. */
  private only: WatchedConnection | null = null;

  constructor(
    private readonly inner: Driver,
    private readonly changes: AccessChanges,
    private readonly counter: StatementCounter,
    private readonly system: 'sqlite' | 'postgresql',
    private readonly runSync?: RunSync,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.inner.acquireConnection();
    let wrapper = this.wrappers.get(connection);
    if (!wrapper) {
      wrapper = new WatchedConnection(connection, this.changes, this.counter, this.system, this.runSync);
      this.wrappers.set(connection, wrapper);
      if (this.system === 'sqlite' && this.runSync) this.only = wrapper;
    }
    this.held += 1;
    return wrapper;
  }

  /** See connectionNow: SQLite's connection while no caller holds it. */
  idleConnection(): WatchedConnection | null {
    return this.held === 0 ? this.only : null;
  }

  /** See connectionNow: SQLite's connection while one caller holds it in a transaction. */
  transactionConnection(): WatchedConnection | null {
    return this.held === 1 && this.only?.inTransaction ? this.only : null;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const watched = connection as WatchedConnection;
    await this.inner.beginTransaction(watched.inner, settings);
    watched.inTransaction = true;
    watched.dirty = false;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const watched = connection as WatchedConnection;
    try {
      await this.inner.commitTransaction(watched.inner);
    } finally {
      watched.inTransaction = false;
      if (watched.dirty) watched.publish(watched.dirtyAccess);
      watched.dirty = false;
      watched.dirtyAccess = false;
    }
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const watched = connection as WatchedConnection;
    try {
      await this.inner.rollbackTransaction(watched.inner);
    } finally {
      watched.inTransaction = false;
      watched.dirty = false;
      watched.dirtyAccess = false;
    }
  }

  async savepoint(connection: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['savepoint']>>[2]): Promise<void> {
    await this.inner.savepoint!((connection as WatchedConnection).inner, name, compile);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['savepoint']>>[2]): Promise<void> {
    await this.inner.rollbackToSavepoint!((connection as WatchedConnection).inner, name, compile);
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['savepoint']>>[2]): Promise<void> {
    await this.inner.releaseSavepoint!((connection as WatchedConnection).inner, name, compile);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    this.held -= 1;
    return this.inner.releaseConnection((connection as WatchedConnection).inner);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}
