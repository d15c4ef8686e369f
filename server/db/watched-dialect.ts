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
import { leafSpan, tracingOn } from '../observability/tracing.js';
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
    createDriver: () => (driver = new WatchedDriver(inner.createDriver(), changes, counter, system)),
  };
}

const driverOf = new WeakMap<DialectAdapter, () => WatchedDriver | null>();

/**
 * SQLite's one connection when nothing holds it, for a statement to run on
 * at once (db/prepared.ts), or null: on PostgreSQL, in a transaction, with a
 * plugin, or while another caller holds the connection (a transaction that
 * awaits between its statements). Kysely's way to a connection (the
 * provider, the runtime driver, the mutex, the release) is about fifteen
 * promises a statement, as many as the rest of a listing's request makes
 * (issue 38 §3). better-sqlite3 runs a statement synchronously, so one that
 * starts while the connection is free ends before anyone else can take it,
 * and no transaction can be open then: every one holds the connection.
 */
export function idleConnection<DB>(db: Kysely<DB>): DatabaseConnection | null {
  if (db.isTransaction) return null;
  const executor = db.getExecutor();
  if (executor.plugins.length) return null;
  return driverOf.get(executor.adapter)?.()?.idleConnection() ?? null;
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

class WatchedConnection implements DatabaseConnection {
  inTransaction = false;
  dirty = false;
  dirtyAccess = false;

  constructor(
    readonly inner: DatabaseConnection,
    private readonly changes: AccessChanges,
    private readonly counter: StatementCounter,
    private readonly system: 'sqlite' | 'postgresql',
  ) {}

  executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    if (!tracingOn()) return this.execute(compiledQuery);
    const { operation, attributes } = statementSpan(this.system, compiledQuery.sql);
    return leafSpan(operation, attributes, () => this.execute<R>(compiledQuery));
  }

  private async execute<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    this.counter.statements += 1;
    const logged = this.counter.log ? { sql: compiledQuery.sql, parameters: compiledQuery.parameters, ms: 0 } : null;
    if (logged) this.counter.log!.push(logged);
    if (!writes(compiledQuery.sql)) {
      if (!logged) return this.inner.executeQuery<R>(compiledQuery);
      const start = performance.now();
      try {
        return await this.inner.executeQuery<R>(compiledQuery);
      } finally {
        logged.ms = performance.now() - start;
      }
    }
    const access = changesAccess(compiledQuery.sql);
    if (this.inTransaction) {
      this.dirty = true;
      this.dirtyAccess ||= access;
    }
    this.publish(access);
    try {
      return await this.inner.executeQuery<R>(compiledQuery);
    } finally {
      // A reader that ran while the statement did could have cached the rows it replaced.
      if (!this.inTransaction) this.publish(access);
    }
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
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.inner.acquireConnection();
    let wrapper = this.wrappers.get(connection);
    if (!wrapper) {
      wrapper = new WatchedConnection(connection, this.changes, this.counter, this.system);
      this.wrappers.set(connection, wrapper);
      if (this.system === 'sqlite') this.only = wrapper;
    }
    this.held += 1;
    return wrapper;
  }

  /** See idleConnection: SQLite's connection while no caller holds it. */
  idleConnection(): WatchedConnection | null {
    return this.held === 0 ? this.only : null;
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
