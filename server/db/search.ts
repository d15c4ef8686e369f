import { sql, type Expression, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { Dialect } from './index.js';
import type { Database } from './types.js';
import { foldName, NAME_CONTAINS } from './name-fold.js';

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
   * drive the statement (`from`). `wanted`: how many matches the page
   * reads (its offset, its rows and one), 51 unless told. `order`: the
   * listing's sort keys (expressions on `file_entries`), for a dialect that
   * can hand the matches over in that order (`ordered`).
   */
  match(db: Kysely<Database>, query: string, options: { alone: boolean; wanted?: number; order?: readonly SortKey[] }): Promise<NameMatch>;
}

/** One key of a listing's order: an expression on `file_entries` and its direction. */
export interface SortKey {
  expr: Expression<unknown>;
  dir: 'asc' | 'desc';
}

/** `file_entries` as a listing's statement reads it by default. */
export const plainEntries = (db: Kysely<Database>) => db.selectFrom('file_entries');

/** Where a listing reads `file_entries` from (its FROM, before the listing's joins). */
export type EntriesFrom = (db: Kysely<Database>) => ReturnType<typeof plainEntries>;

export interface NameMatch {
  /** On `file_entries`: true for exactly the rows whose name contains the text. */
  condition: Expression<SqlBool>;
  /**
   * Few matches, the name the whole text condition: `file_entries` read
   * through the matches' ids, which then need no `condition`. Null: read
   * `file_entries` with `condition`.
   */
  from: EntriesFrom | null;
  /**
   * `from`'s matches come numbered in the listing's order (`candidate.place`,
   * as of the statement that listed them): the page's ids can be read in that
   * order and stop at the page, instead of looking up and sorting every match.
   */
  ordered: boolean;
  /**
   * SQLite with many matches, dense among the rows: the page is likely found
   * in the first `rows` rows of the space in the listing's order, each row's
   * name tested by `check`. When it is not (a short page), the listing reads
   * the page again with `condition`. Null: use `from` or `condition`.
   */
  walk: NameWalk | null;
}

export interface NameWalk {
  /** On a name (any expression of it, e.g. a subquery's column): true exactly when it contains the text. */
  check(name: Expression<string>): Expression<SqlBool>;
  rows: number;
}

/** Up to this many matches, a search page is built from the matches' ids. */
export const SEARCH_CANDIDATES = 2000;

/**
 * A broad search's walk reads at most this many rows (~1 µs each with the
 * name test, so at worst ~5 ms when it gives up) before the listing falls
 * back on the index's full list of matches.
 */
export const WALK_ROWS = 5000;

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

/**
 * A LIKE pattern that every name containing `query` matches too, made of
 * fewer of its characters, for PostgreSQL's trigram index (null: none worth
 * it). The GIN scan walks every item of each of the pattern's trigram lists
 * (perf over 1M entries: ~60% of the backend's time in gingetbitmap's loop),
 * and a common word's trigrams each list a tenth of a drive; a name's
 * distinctive parts are its words' ends and starts. So each word (a run of
 * letters and digits, as pg_trgm splits them) keeps its start, with the
 * character before it when there is one (pg_trgm then reads it as a word
 * start: "  1", " 12", few rows), and, from six characters, its last three
 * (queries of two words or more):
 * "invoice 12" → `%inv%ice% 12%`, 4 lists instead of 8 (~320k items instead
 * of ~710k over the bench's 1M, the same 1,111 candidates). The pieces are
 * the query's own substrings in order, so the pattern is implied by the
 * query's; the exact test still decides. ASCII only: elsewhere lowering a
 * piece alone could differ from lowering it in the query (a final sigma).
 */
export function sparsePattern(query: string): string | null {
  if (!/^[\x20-\x7e]*$/.test(query)) return null;
  const words = [...query.matchAll(/[A-Za-z0-9]+/g)];
  // One word: its middle trigrams are as common as its ends, and a broad one ("report", a tenth of the bench's
  // drive) is answered by the planner's walk that stops at 2,001 rows, where the looser pattern only costs more
  // per row (backend CPU +8%). A later word's start is where the lists are short ("  1", " 12").
  if (words.length < 2) return null;
  const pieces: string[] = [];
  for (const word of words) {
    const at = word.index;
    const text = word[0];
    // Within the word and the one character before it, which no earlier piece reaches: the pieces never overlap.
    if (at > 0) pieces.push(query.slice(at - 1, at + Math.min(2, text.length)));
    else if (text.length >= TRIGRAM) pieces.push(text.slice(0, TRIGRAM));
    if (text.length >= 2 * TRIGRAM) pieces.push(text.slice(-TRIGRAM));
  }
  const pattern = `%${pieces.map(escapeLike).join('%')}%`;
  // Nothing kept, or nothing left out: the plain pattern is as good.
  return pieces.length === 0 || pattern === `%${escapeLike(query)}%` ? null : pattern;
}

/** `candidates`: up to how many matches a page is still built from them (tests lower it). */
export function createNameSearch(dialect: Dialect, { candidates = SEARCH_CANDIDATES, walkRows = WALK_ROWS } = {}): NameSearch {
  return dialect === 'postgres' ? postgresSearch(candidates) : sqliteSearch(candidates, walkRows);
}

function postgresSearch(candidates: number): NameSearch {
  const nameContains = (query: string) => sql<SqlBool>`file_entries.name ilike ${`%${escapeLike(query)}%`} escape '\\'`;
  return {
    /**
     * Given "name contains X, newest first, 50", the planner overestimates
     * the matches (1,010 for 111 over 100k) and walks the owner's rows in
     * date order testing each name (12k rows, 13–17 ms). The trigram index
     * lists the matches in ~1 ms; when they are few, the page is built from
     * them. Over 1M entries ("invoice 12", 1,111 matches), as the backend's
     * CPU a statement (load ~10): `id = any($ids)` with the listing's joins cost 5.1 ms
     * (planning looks up statistics an element at a time; the joins and
     * subqueries ran for every match before the sort); the page's ids picked
     * first, 3.1–3.5 ms (a look-up a match, then the sort); now the list
     * comes in the listing's order (sorting the ≤ 2,001 capped rows, whose
     * sort keys the index's recheck has read anyway, +0.1 ms) and the page
     * reads it in that order, stopping at its 51 rows: 1.6 ms. Under three
     * characters there is no trigram to use.
     */
    async match(db, raw, { alone, order = [] }) {
      const query = searchableText(raw);
      if ([...query].length < TRIGRAM) return { condition: nameContains(query), from: null, walk: null, ordered: false };
      // The index answers the sparse pattern (when there is one); each candidate's `hit` is the exact test, in the
      // select list so that the planner neither hands it to the index (which would walk every trigram's list
      // again) nor counts it in its estimate of the rows (which picks a broad query's plan: a walk that stops early).
      const sparse = sparsePattern(query);
      const capped = db
        .selectFrom('file_entries')
        .select(['file_entries.id', sparse === null ? sql<boolean>`true`.as('hit') : nameContains(query).as('hit')])
        .where(sparse === null ? nameContains(query) : sql<SqlBool>`file_entries.name ilike ${sparse} escape '\\'`)
        .limit(candidates + 1);
      // The capped list in the listing's order: the recheck of each match's row has read its sort keys already.
      // (An ORDER BY beside the LIMIT would let the planner walk the rows in that order instead.)
      let listed = db.selectFrom(capped.select(order.map((key, i) => sql`${key.expr}`.as(`k${i}`))).as('capped')).select(['capped.id', 'capped.hit']);
      if (alone) order.forEach((key, i) => (listed = listed.orderBy(sql.ref(`capped.k${i}`), key.dir)));
      const candidateRows = await (alone && order.length ? listed : capped).execute();
      // With more candidates, the planner's own walk in the listing's order tests each name with ILIKE, cheap per row.
      if (candidateRows.length > candidates) return { condition: nameContains(query), from: null, walk: null, ordered: false };
      const matches = sparse === null ? candidateRows : candidateRows.filter((row) => row.hit);
      const ids = matches.map((m) => m.id);
      return {
        condition: sql<SqlBool>`file_entries.id = any(${ids})`,
        from: alone
          ? (db) => fromCandidates(db, sql`(select entry_id, place from unnest(cast(${ids} as integer[])) with ordinality as listed(entry_id, place))`)
          : null,
        walk: null,
        ordered: alone && order.length > 0,
      };
    },
  };
}

function sqliteSearch(candidates: number, walkRows: number): NameSearch {
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
     *
     * With more matches than the cap, testing a row against the matches means
     * listing all of them first (~30 ms for the 100k of "report" over 1M).
     * When they are dense (judged by how far into the index the capped list
     * had to read), the page is near the start of the walk, so each walked
     * row's name is tested on its own instead (db/name-fold.ts), within
     * `walkRows` rows; sparse matches keep the walk against the full list.
     */
    async match(db, raw, { alone, wanted = 51 }) {
      const query = searchableText(raw);
      if ([...query].length < TRIGRAM) {
        return { condition: sql<SqlBool>`file_entries.name like ${`%${escapeLike(query)}%`} escape '\\'`, from: null, walk: null, ordered: false };
      }
      // A quoted FTS5 string is one phrase: operators and column filters in the text mean nothing.
      const phrase = `"${query.replace(/"/g, '""')}"`;
      const matching = sql<SqlBool>`file_entries.id in (select rowid from file_entries_search where file_entries_search match ${phrase})`;
      if (!alone) return { condition: matching, from: null, walk: null, ordered: false };
      const listed = await sql<{ count: number; ids: string; first: number | null; last: number | null }>`select count(*) as count,
          json_group_array(rowid) as ids, min(rowid) as first, max(rowid) as last
        from (select rowid from file_entries_search where file_entries_search match ${phrase} limit ${candidates + 1})`.execute(db);
      const { count, ids, first, last } = listed.rows[0]!;
      if (count > candidates) {
        // The index lists in id order: matches per id over the ids it read, as a guess of their share of any walk.
        const share = count / (Number(last) - Number(first) + 1);
        const folded = foldName(query);
        const dense = wanted / share <= walkRows / 2;
        return {
          condition: matching,
          from: null,
          walk: dense ? { check: (name) => sql<SqlBool>`${sql.raw(NAME_CONTAINS)}(${name}, ${folded})`, rows: walkRows } : null,
          ordered: false,
        };
      }
      return {
        condition: sql<SqlBool>`file_entries.id in (select value from json_each(${ids}))`,
        from: (db) => fromCandidates(db, sql`(select value as entry_id from json_each(${ids}))`),
        walk: null,
        ordered: false,
      };
    },
  };
}

/**
 * `file_entries` read through a list of ids (`candidates`: a one-column
 * `entry_id` table of them), the ids first. The candidate table's column is
 * read only by the join condition here, so the builder passes on as one over
 * `file_entries` alone.
 */
function fromCandidates(db: Kysely<Database>, candidates: RawBuilder<unknown>): ReturnType<EntriesFrom> {
  return db
    .selectFrom(candidates.as('candidate'))
    .crossJoin('file_entries')
    .where(sql<SqlBool>`file_entries.id = candidate.entry_id`) as unknown as ReturnType<EntriesFrom>;
}
