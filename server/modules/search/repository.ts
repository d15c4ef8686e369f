import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { Dialect } from '../../db/index.js';
import type { Database, FileContentsTable } from '../../db/types.js';

type Executor = Kysely<Database>;

export interface ContentRow {
  entryId: number;
  sha256: string | null;
  status: FileContentsTable['status'];
  text: string;
  truncated: boolean;
}

/** What the stored text was read from, to skip a job over the same bytes. */
export async function storedVersion(db: Executor, entryId: number) {
  return db.selectFrom('file_contents').select(['sha256', 'extractor_version', 'status']).where('entry_id', '=', entryId).executeTakeFirst();
}

/**
 * Replaces a file's text and its index entry in one transaction. `indexed` is
 * the folded distinct words (fold.ts): SQLite puts them in the contentless
 * FTS5 table under the entry's id, PostgreSQL in the row's tsvector ('simple':
 * the words are folded already and no stemmer is right for every file).
 */
export async function saveContent(db: Executor, dialect: Dialect, row: ContentRow, indexed: string, version: number, now: string): Promise<void> {
  await db.transaction().execute((trx) => writeContent(trx, dialect, row, indexed, version, now));
}

/** saveContent's writes, inside the caller's transaction (the bench seeds many at once). */
export async function writeContent(trx: Executor, dialect: Dialect, row: ContentRow, indexed: string, version: number, now: string): Promise<void> {
  {
    // The trigger takes the SQLite index row with it.
    await trx.deleteFrom('file_contents').where('entry_id', '=', row.entryId).execute();
    const values = [row.entryId, row.sha256, row.status, version, row.text, row.truncated ? 1 : 0, now] as const;
    if (dialect === 'postgres') {
      await sql`insert into file_contents (entry_id, sha256, status, extractor_version, text, truncated, extracted_at, search)
        values (${values[0]}, ${values[1]}, ${values[2]}, ${values[3]}, ${values[4]}, ${values[5]}, ${values[6]}, to_tsvector('simple', ${indexed}))`.execute(
        trx,
      );
      return;
    }
    await trx
      .insertInto('file_contents')
      .values({
        entry_id: row.entryId,
        sha256: row.sha256,
        status: row.status,
        extractor_version: version,
        text: row.text,
        truncated: values[5],
        extracted_at: now,
      })
      .execute();
    if (indexed) await sql`insert into file_contents_search (rowid, words) values (${row.entryId}, ${indexed})`.execute(trx);
  }
}

export async function deleteContent(db: Executor, entryId: number): Promise<void> {
  await db.deleteFrom('file_contents').where('entry_id', '=', entryId).execute();
}

/** The stored text of those of `ids` that have some. */
export async function textsOf(db: Executor, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('file_contents').select(['entry_id', 'text']).where('entry_id', 'in', ids).where('status', '=', 'ok').execute();
  return new Map(rows.map((r) => [r.entry_id, r.text]));
}

/**
 * "The file's text has every one of these words (each as a word prefix)", as
 * a condition on `file_entries.id` for the drive listing, which adds the
 * access rules and filters around it. `terms` are folded words (letters and
 * digits only, so they need no escaping inside the query languages; they are
 * still passed as parameters).
 */
export function contentMatch(dialect: Dialect, terms: string[]): Expression<SqlBool> {
  if (dialect === 'postgres') {
    const query = terms.map((t) => `${t}:*`).join(' & ');
    return sql<SqlBool>`file_entries.id in (select entry_id from file_contents where search @@ to_tsquery('simple', ${query}))`;
  }
  const query = terms.map((t) => `"${t}"*`).join(' ');
  return sql<SqlBool>`file_entries.id in (select rowid from file_contents_search where file_contents_search match ${query})`;
}
