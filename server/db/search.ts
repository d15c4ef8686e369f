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
 *
 * On both, when the index finds few matches (up to SEARCH_CANDIDATES, in any
 * space: the cap bounds the work, the listing's own conditions decide what
 * shows), a listing's page is built from those matches; with more, the page is
 * found by walking the space's rows in the listing's order, which then meets
 * matches early.
 */
export interface NameSearch {
  /**
   * The name condition for a listing's page. `alone`: the name is the whole
   * text condition (not one side of content search's OR), so the matches may
   * drive the statement (SQLite's `from`).
   */
  match(db: Kysely<Database>, query: string, options: { alone: boolean }): Promise<NameMatch>;
}

/** `file_entries` as a listing's statement reads it by default. */
export const plainEntries = (db: Kysely<Database>) => db.selectFrom('file_entries');

/** Where a listing reads `file_entries` from (its FROM, before the listing's joins). */
export type EntriesFrom = (db: Kysely<Database>) => ReturnType<typeof plainEntries>;

export interface NameMatch {
  /** On `file_entries`: true for exactly the rows whose name contains the text. */
  condition: Expression<SqlBool>;
  /**
   * SQLite with few matches: `file_entries` read through the matches' ids,
   * which then need no `condition`. Null: read `file_entries` with `condition`.
   */
  from: EntriesFrom | null;
}

/** Up to this many matches, a search page is built from the matches' ids. */
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

/** `candidates`: up to how many matches a page is still built from them (tests lower it). */
export function createNameSearch(dialect: Dialect, { candidates = SEARCH_CANDIDATES } = {}): NameSearch {
  return dialect === 'postgres' ? postgresSearch(candidates) : sqliteSearch(candidates);
}

function postgresSearch(candidates: number): NameSearch {
  const nameContains = (query: string) => sql<SqlBool>`file_entries.name ilike ${`%${escapeLike(query)}%`} escape '\\'`;
  return {
    /**
     * Given "name contains X, newest first, 50", the planner overestimates
     * the matches (1,010 for 111 over 100k) and walks the owner's rows in
     * date order testing each name (12k rows, 13–17 ms). The trigram index
     * lists the matches in ~1 ms; when they are few, the page is built from
     * their ids (0.4 ms): with statistics the planner reads them by primary
     * key and sorts them. Under three characters there is no trigram to use.
     */
    async match(db, raw) {
      const query = searchableText(raw);
      if ([...query].length < TRIGRAM) return { condition: nameContains(query), from: null };
      const matches = await db
        .selectFrom('file_entries')
        .select('id')
        .where(nameContains(query))
        .limit(candidates + 1)
        .execute();
      if (matches.length > candidates) return { condition: nameContains(query), from: null };
      return { condition: sql<SqlBool>`file_entries.id = any(${matches.map((m) => m.id)})`, from: null };
    },
  };
}

function sqliteSearch(candidates: number): NameSearch {
  return {
    /**
     * SQLite keeps no statistics, so for "name in the FTS5 matches, newest
     * first, 50" its planner takes `owner_id = ?` for ~10 rows and walks the
     * owner's rows in date order, testing each against the matches: ~12k rows
     * for "invoice 12" over 100k, ~120k over 1M. The matches alone take ~0.2 ms
     * to list. So they are listed first (one short statement, capped) and,
     * when few, the page's statement reads them first and looks each row up by
     * id: a CROSS JOIN is SQLite's way to fix that order whatever the
     * planner's guesses (https://sqlite.org/optoverview.html#crossjoin).
     * With more matches than the cap, the walk meets a page of them early.
     */
    async match(db, raw, { alone }) {
      const query = searchableText(raw);
      if ([...query].length < TRIGRAM) {
        return { condition: sql<SqlBool>`file_entries.name like ${`%${escapeLike(query)}%`} escape '\\'`, from: null };
      }
      // A quoted FTS5 string is one phrase: operators and column filters in the text mean nothing.
      const phrase = `"${query.replace(/"/g, '""')}"`;
      const matching = sql<SqlBool>`file_entries.id in (select rowid from file_entries_search where file_entries_search match ${phrase})`;
      if (!alone) return { condition: matching, from: null };
      const listed = await sql<{ count: number; ids: string }>`select count(*) as count, json_group_array(rowid) as ids
        from (select rowid from file_entries_search where file_entries_search match ${phrase} limit ${candidates + 1})`.execute(db);
      const { count, ids } = listed.rows[0]!;
      if (count > candidates) return { condition: matching, from: null };
      return {
        condition: sql<SqlBool>`file_entries.id in (select value from json_each(${ids}))`,
        from: (db) => fromCandidates(db, ids),
      };
    },
  };
}

/**
 * `file_entries` read through a JSON array of ids, the ids first. The
 * candidate table's one column is read only by the join condition here, so
 * the builder passes on as one over `file_entries` alone.
 */
function fromCandidates(db: Kysely<Database>, ids: string): ReturnType<EntriesFrom> {
  return db
    .selectFrom(sql`(select value as entry_id from json_each(${ids}))`.as('candidate'))
    .crossJoin('file_entries')
    .where(sql<SqlBool>`file_entries.id = candidate.entry_id`) as unknown as ReturnType<EntriesFrom>;
}
