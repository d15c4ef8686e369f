import { sql, type Expression, type SqlBool } from 'kysely';
import type { Dialect } from './index.js';

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
  /** A condition on the `file_entries` row aliased `alias` (default `file_entries`). */
  nameContains(query: string, alias?: string): Expression<SqlBool>;
}

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

export function createNameSearch(dialect: Dialect): NameSearch {
  if (dialect === 'postgres') {
    return {
      nameContains(raw, alias = 'file_entries') {
        const query = searchableText(raw);
        return sql<SqlBool>`${sql.ref(`${alias}.name`)} ilike ${`%${escapeLike(query)}%`} escape '\\'`;
      },
    };
  }
  return {
    nameContains(raw, alias = 'file_entries') {
      const query = searchableText(raw);
      if ([...query].length < TRIGRAM) {
        return sql<SqlBool>`${sql.ref(`${alias}.name`)} like ${`%${escapeLike(query)}%`} escape '\\'`;
      }
      // A quoted FTS5 string is one phrase: operators and column filters in the text mean nothing.
      const phrase = `"${query.replace(/"/g, '""')}"`;
      return sql<SqlBool>`${sql.ref(`${alias}.id`)} in (select rowid from file_entries_search where file_entries_search match ${phrase})`;
    },
  };
}
