import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { Dialect } from './index.js';
import type { Database } from './types.js';

/**
 * Name search over `file_entries`, fast on large drives, with one meaning on
 * both dialects: "the name contains this text, ignoring case".
 *
 * - SQLite: an FTS5 table with the trigram tokenizer (`file_entries_search`,
 *   kept in sync by triggers from the drive migration). A phrase of three or
 *   more characters is a substring match answered from the index; shorter
 *   queries have no trigram, so they fall back to LIKE on the owner's rows.
 * - PostgreSQL: ILIKE, answered by the pg_trgm GIN index on `name`.
 */
export interface NameSearch {
  /**
   * The condition on `file_entries` for a listing's page, which also orders
   * and limits: on PostgreSQL, when the trigram index finds few matches, they
   * are read first and the page is built from their ids (see below).
   */
  listingCondition(db: Kysely<Database>, query: string): Promise<Expression<SqlBool>>;
}

/** Up to this many matches, a PostgreSQL search page is built from the matches' ids. */
export const SEARCH_CANDIDATES = 2000;

/** `50%_off` → `50\%\_off`: the user's text is matched literally. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

const TRIGRAM = 3;

/**
 * What of the user's text is searched for: control characters go (no name
 * holds them, and a NUL ends an FTS5 string early), and so do lone UTF-16
 * surrogates, which no stored name can contain either.
 */
export function searchableText(query: string): string {
  return query.replace(/\p{Cc}/gu, '').replace(/[\uD800-\uDFFF]/g, (c, i: number, s: string) => {
    const code = c.charCodeAt(0);
    const pairedHigh = code <= 0xdbff && /[\uDC00-\uDFFF]/.test(s[i + 1] ?? '');
    const pairedLow = code >= 0xdc00 && /[\uD800-\uDBFF]/.test(s[i - 1] ?? '');
    return pairedHigh || pairedLow ? c : '';
  });
}

/** `candidates`: how many matches a PostgreSQL page is still built from (tests lower it). */
export function createNameSearch(dialect: Dialect, { candidates = SEARCH_CANDIDATES } = {}): NameSearch {
  if (dialect === 'postgres') {
    const nameContains = (raw: string) => {
      const query = searchableText(raw);
      return sql<SqlBool>`file_entries.name ilike ${`%${escapeLike(query)}%`} escape '\\'`;
    };
    return {
      /**
       * Given "name contains X, newest first, 50", the planner overestimates
       * the matches (1,010 for 111 over 100k) and walks the owner's rows in
       * date order testing each name (12k rows, 13–17 ms). The trigram index
       * lists the matches in ~1 ms; when they are few, the page is built from
       * their ids (0.4 ms). Many matches mean the date-order walk finds a page
       * soon, so it stays. Under three characters there is no trigram to use.
       */
      async listingCondition(db, raw) {
        if ([...searchableText(raw)].length < TRIGRAM) return nameContains(raw);
        const matches = await db
          .selectFrom('file_entries')
          .select('id')
          .where(nameContains(raw))
          .limit(candidates + 1)
          .execute();
        if (matches.length > candidates) return nameContains(raw);
        return sql<SqlBool>`file_entries.id = any(${matches.map((m) => m.id)})`;
      },
    };
  }
  return {
    // SQLite answers the FTS5 subquery from its index within the statement; no separate read helps its planner.
    listingCondition: async (_db, raw) => nameContainsSqlite(raw),
  };
}

function nameContainsSqlite(raw: string): Expression<SqlBool> {
  const query = searchableText(raw);
  if ([...query].length < TRIGRAM) {
    return sql<SqlBool>`file_entries.name like ${`%${escapeLike(query)}%`} escape '\\'`;
  }
  // A quoted FTS5 string is one phrase: operators and column filters in the text mean nothing.
  const phrase = `"${query.replace(/"/g, '""')}"`;
  return sql<SqlBool>`file_entries.id in (select rowid from file_entries_search where file_entries_search match ${phrase})`;
}
