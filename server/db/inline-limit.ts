import { SqliteDialect, SqliteQueryCompiler, ValueNode, type LimitNode, type QueryCompiler } from 'kysely';

/**
 * SQLite's compiler with a LIMIT that is a whole number written into the
 * statement (`limit 1`) instead of bound (`limit ?`). SQLite 3.47 and later
 * read a bound LIMIT's value when they plan the statement, and so mark the
 * statement to be planned again whenever that parameter is bound: better-sqlite3
 * binds every parameter on every run, so a cached statement with `limit ?`
 * was prepared anew on each run, planned against every index of its tables. A
 * WebDAV PUT's name look-ups (`liveChildNamed`: `order by id limit ?`) cost
 * 45-80 µs each that way against 10-17 µs with the limit written in (measured
 * on a bench database, SQLite 3.53). OFFSET is not planned on and stays bound
 * (offsets vary page by page; each text is a statement of its own in the
 * cache). Only a safe integer is written in: nothing a caller sends reaches
 * the text otherwise.
 */
export class InlineLimitCompiler extends SqliteQueryCompiler {
  protected override visitLimit(node: LimitNode): void {
    const limit = node.limit;
    if (ValueNode.is(limit) && !limit.immediate && typeof limit.value === 'number' && Number.isSafeInteger(limit.value) && limit.value >= 0) {
      this.append(`limit ${limit.value}`);
      return;
    }
    super.visitLimit(node);
  }
}

/** Kysely's SQLite dialect with InlineLimitCompiler. */
export class InlineLimitSqliteDialect extends SqliteDialect {
  override createQueryCompiler(): QueryCompiler {
    return new InlineLimitCompiler();
  }
}
