import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { Dialect } from '../../db/index.js';
import { prepared } from '../../db/prepared.js';
import type { Database, FileContentsTable } from '../../db/types.js';
import { entriesThatExist } from '../drive/repository.js';

type Executor = Kysely<Database>;

export interface ContentRow {
  entryId: number;
  sha256: string | null;
  status: FileContentsTable['status'];
  text: string;
  truncated: boolean;
}

// The text job of one new file (a small WebDAV PUT's, when no others are queued with it): its three statements compiled once.
const versionOfOne = prepared(
  () => 'one',
  (db, { entryId }: { entryId: number }) =>
    db.selectFrom('file_contents').select(['entry_id', 'sha256', 'extractor_version']).where('entry_id', 'in', [entryId]),
);
const contentOfOneCleared = prepared(
  () => 'one',
  (db, { entryId }: { entryId: number }) => db.deleteFrom('file_contents').where('entry_id', 'in', [entryId]),
);
const contentOfOneWritten = prepared(
  () => 'one',
  (
    db,
    row: {
      entry_id: number;
      sha256: string | null;
      status: FileContentsTable['status'];
      extractor_version: number;
      text: string;
      truncated: number;
      extracted_at: string;
    },
  ) => db.insertInto('file_contents').values(row),
);

/** What the stored texts of these files were read from, by entry id (files with no row are absent): to skip bytes read already. */
export async function storedVersions(db: Executor, entryIds: number[]) {
  if (!entryIds.length) return new Map<number, { sha256: string | null; extractor_version: number }>();
  const rows =
    entryIds.length === 1
      ? await versionOfOne(db, { entryId: entryIds[0]! }, null)
      : await db.selectFrom('file_contents').select(['entry_id', 'sha256', 'extractor_version']).where('entry_id', 'in', entryIds).execute();
  return new Map(rows.map((row) => [row.entry_id, row]));
}

/** A file's text and its folded words (fold.ts indexedWords; empty: nothing to index). */
export interface ContentWrite {
  row: ContentRow;
  indexed: string;
}

/**
 * A file's text and its index entry, inside the caller's transaction (the
 * bench seeds many at once). `indexed` is the folded distinct words
 * (fold.ts): SQLite puts them in the contentless FTS5 table under the
 * entry's id, PostgreSQL in the row's tsvector ('simple': the words are
 * folded already and no stemmer is right for every file).
 */
export async function writeContent(trx: Executor, dialect: Dialect, row: ContentRow, indexed: string, version: number, now: string): Promise<void> {
  await writeContents(trx, dialect, { cleared: [], written: [{ row, indexed }] }, version, now);
}

/**
 * The text job's outcome for a batch of files, in one transaction: the rows
 * of `cleared` go (gone, or no longer text), those of `written` are replaced.
 * A file deleted since its text was read is skipped (its row would have no entry).
 */
export async function saveContents(db: Executor, dialect: Dialect, batch: { cleared: number[]; written: ContentWrite[] }, version: number, now: string) {
  if (!batch.cleared.length && !batch.written.length) return;
  await db.transaction().execute(async (trx) => {
    const live = await entriesThatExist(
      trx,
      batch.written.map((w) => w.row.entryId),
    );
    await writeContents(trx, dialect, { cleared: batch.cleared, written: batch.written.filter((w) => live.has(w.row.entryId)) }, version, now);
  });
}

async function writeContents(trx: Executor, dialect: Dialect, batch: { cleared: number[]; written: ContentWrite[] }, version: number, now: string) {
  const ids = [...batch.cleared, ...batch.written.map((w) => w.row.entryId)];
  if (!ids.length) return;
  // The trigger takes the SQLite index rows with them.
  if (ids.length === 1) await contentOfOneCleared(trx, { entryId: ids[0]! }, null);
  else await trx.deleteFrom('file_contents').where('entry_id', 'in', ids).execute();
  if (!batch.written.length) return;
  if (dialect === 'postgres') {
    const values = batch.written.map(
      ({ row, indexed }) =>
        sql`(${row.entryId}, ${row.sha256}, ${row.status}, ${version}, ${row.text}, ${row.truncated ? 1 : 0}, ${now}, to_tsvector('simple', ${indexed}))`,
    );
    await sql`insert into file_contents (entry_id, sha256, status, extractor_version, text, truncated, extracted_at, search)
      values ${sql.join(values)}`.execute(trx);
    return;
  }
  const rows = batch.written.map(({ row }) => ({
    entry_id: row.entryId,
    sha256: row.sha256,
    status: row.status,
    extractor_version: version,
    text: row.text,
    truncated: row.truncated ? 1 : 0,
    extracted_at: now,
  }));
  if (rows.length === 1) await contentOfOneWritten(trx, rows[0]!, null);
  else await trx.insertInto('file_contents').values(rows).execute();
  const indexed = batch.written.filter((w) => w.indexed);
  if (indexed.length) {
    await sql`insert into file_contents_search (rowid, words) values ${sql.join(indexed.map((w) => sql`(${w.row.entryId}, ${w.indexed})`))}`.execute(trx);
  }
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
