import { sql, type Kysely } from 'kysely';
import { isPostgres, timestampType } from './schema-helpers.js';

/**
 * Content search (issue 35): the text extracted from a file's current bytes,
 * one row per file, owned by modules/search. `sha256` is the content it was
 * read from (a re-queued job over the same bytes does nothing); `status` says
 * what came of it ('ok', 'empty', 'too_large', 'failed').
 *
 * The index holds the file's distinct words, folded (case, diacritics, and
 * Turkish dotted and dotless i: search/fold.ts) in JavaScript, so both
 * dialects index and query the same tokens:
 * - SQLite: a contentless FTS5 table (`file_contents_search`, rowid = the
 *   entry's id, unicode61 with diacritics removed as a second lock), its rows
 *   deleted with the content's by a trigger (a purge cascades to both).
 * - PostgreSQL: a `search` tsvector column made with the 'simple'
 *   configuration (no stemming: the words are English and Turkish and nothing
 *   says which a file is in; per-language stemmers would also make the two
 *   dialects answer differently) and a GIN index.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  let table = db.schema
    .createTable('file_contents')
    .addColumn('entry_id', 'integer', (c) => c.primaryKey().references('file_entries.id').onDelete('cascade'))
    .addColumn('sha256', 'varchar(64)')
    .addColumn('status', 'varchar(20)', (c) => c.notNull())
    .addColumn('extractor_version', 'integer', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('truncated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('extracted_at', ts, (c) => c.notNull());
  if (isPostgres(db)) table = table.addColumn('search', sql`tsvector`, (c) => c.notNull());
  await table.execute();
  if (isPostgres(db)) {
    await sql`create index file_contents_search_index on file_contents using gin (search)`.execute(db);
  } else {
    await sql`create virtual table file_contents_search using fts5(words, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2')`.execute(
      db,
    );
    await sql`create trigger file_contents_search_delete after delete on file_contents begin
      delete from file_contents_search where rowid = old.entry_id;
    end`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) {
    await sql`drop trigger if exists file_contents_search_delete`.execute(db);
    await sql`drop table if exists file_contents_search`.execute(db);
  }
  await db.schema.dropTable('file_contents').execute();
}
