import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNameSearch } from '../../../server/db/search.js';
import { DriveListing } from '../../../server/modules/drive/listing.js';
import { chargedBytes } from '../../../server/modules/drive/repository.js';
import type { ListQuery } from '../../../server/modules/drive/schemas.js';
import { actorFor, createFolder, signedInUser, uploadFile } from '../support/drive-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

/**
 * Every statement a listing, a name search or the access checks send is
 * replayed under EXPLAIN: none may read the whole of file_entries. On
 * PostgreSQL sequential scans are priced out first, since on a tiny test
 * table the planner would rightly prefer one; what matters is that an index
 * can serve the query.
 */
const t0Dialect = () => (process.env.TEST_DIALECT ?? 'sqlite') as 'sqlite' | 'postgres';

describe('query plans of listings, search and access checks', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const fullScans = async (statements: { sql: string; parameters: readonly unknown[] }[]) => {
    const db = servicesOf(t.app).db;
    const found: string[] = [];
    for (const statement of statements) {
      if (!/^\s*select/i.test(statement.sql) || !/"file_entries"/.test(statement.sql)) continue;
      if (db.dialect === 'sqlite') {
        const plan = await db.kysely.executeQuery<{ detail: string }>({
          ...sql``.compile(db.kysely),
          sql: `explain query plan ${statement.sql}`,
          parameters: statement.parameters,
        });
        // "SCAN file_entries" without "USING INDEX": every row read.
        const scans = plan.rows.map((row) => row.detail).filter((detail) => /^SCAN (file_entries|parent)\b(?!.*USING (COVERING )?INDEX)/.test(detail));
        if (scans.length) found.push(`${statement.sql}\n  ${scans.join('\n  ')}`);
      } else {
        const plan = await db.kysely.transaction().execute(async (trx) => {
          await sql`set local enable_seqscan = off`.execute(trx);
          return trx.executeQuery<{ 'QUERY PLAN': string }>({
            ...sql``.compile(trx),
            sql: `explain ${statement.sql}`,
            parameters: statement.parameters,
          });
        });
        const scans = plan.rows.map((row) => row['QUERY PLAN']).filter((line) => /Seq Scan on file_entries/.test(line));
        if (scans.length) found.push(`${statement.sql}\n  ${scans.join('\n  ')}`);
      }
    }
    return found;
  };

  it('a folder, the root, a name search and an entry check never scan file_entries', async () => {
    const { user, client } = await signedInUser(t.app);
    const folder = await createFolder(client, 'Plans');
    for (let i = 0; i < 5; i += 1) await uploadFile(t.app, user, { name: `invoice ${i}.txt`, parentId: folder });
    const counter = servicesOf(t.app).db.counter;
    const log: NonNullable<typeof counter.log> = [];
    counter.log = log;
    try {
      for (const url of [
        `/api/v1/drive/file-entries?folderId=${folder}&perPage=50`,
        `/api/v1/drive/file-entries?folderId=${folder}&perPage=50&page=1`,
        '/api/v1/drive/file-entries?folderId=0&perPage=50',
        '/api/v1/drive/file-entries?query=invoice%201&perPage=50',
        `/api/v1/drive/file-entries?folderId=${folder}&query=invoice&perPage=50`,
      ]) {
        const res = await client.get(url);
        expect(res.statusCode, res.body).toBe(200);
      }
      expect((await client.get(`/api/v1/file-entries/${folder}`)).statusCode).toBe(200);
    } finally {
      delete counter.log;
    }
    expect(log.filter((s) => /"file_entries"/.test(s.sql)).length).toBeGreaterThan(5);
    expect(await fullScans(log)).toEqual([]);
  });

  it('a content search (issue 35) never scans file_entries, and finds the words through the full-text index', async () => {
    const { user, client } = await signedInUser(t.app);
    for (let i = 0; i < 5; i += 1) await uploadFile(t.app, user, { name: `memo ${i}.txt`, content: `minutes of meeting ${i} about the harbour` });
    await servicesOf(t.app).jobs.idle();
    const counter = servicesOf(t.app).db.counter;
    const log: NonNullable<typeof counter.log> = [];
    counter.log = log;
    try {
      for (const url of [
        '/api/v1/drive/file-entries?query=harbour&content=true&perPage=50',
        '/api/v1/drive/file-entries?query=harbour%20meet&content=true&page=1',
      ]) {
        const res = await client.get(url);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().pagination.data).toHaveLength(5);
      }
    } finally {
      delete counter.log;
    }
    expect(await fullScans(log)).toEqual([]);
    const page = log.find((s) => /file_contents/.test(s.sql) && /"file_entries"/.test(s.sql))!;
    const db = servicesOf(t.app).db;
    if (db.dialect === 'sqlite') {
      const plan = await db.kysely.executeQuery<{ detail: string }>({
        ...sql``.compile(db.kysely),
        sql: `explain query plan ${page.sql}`,
        parameters: page.parameters,
      });
      expect(plan.rows.map((row) => row.detail).join('\n')).toMatch(/SCAN file_contents_search VIRTUAL TABLE INDEX/);
    } else {
      const plan = await db.kysely.transaction().execute(async (trx) => {
        await sql`set local enable_seqscan = off`.execute(trx);
        return trx.executeQuery<{ 'QUERY PLAN': string }>({ ...sql``.compile(trx), sql: `explain ${page.sql}`, parameters: page.parameters });
      });
      expect(plan.rows.map((row) => row['QUERY PLAN']).join('\n')).toMatch(/Bitmap Index Scan on file_contents_search_index/);
    }
  });

  it.runIf(t0Dialect() === 'postgres')('PostgreSQL reads a root or folder page in index order, with no sort (personal and workspace spaces)', async () => {
    const { user, client } = await signedInUser(t.app);
    const folder = await createFolder(client, 'Ordered');
    for (let i = 0; i < 3; i += 1) await uploadFile(t.app, user, { name: `page ${i}.txt`, parentId: folder });
    const counter = servicesOf(t.app).db.counter;
    const log: NonNullable<typeof counter.log> = [];
    const workspace = (await client.post('/api/v1/workspace', { name: 'Ordered team' })).json<{ workspace: { id: number } }>().workspace.id;
    counter.log = log;
    try {
      for (const url of [
        '/api/v1/drive/file-entries?folderId=0&perPage=50',
        `/api/v1/drive/file-entries?folderId=${folder}&perPage=50`,
        `/api/v1/drive/file-entries?folderId=0&perPage=50&workspaceId=${workspace}`,
      ]) {
        const res = await client.get(url);
        expect(res.statusCode, res.body).toBe(200);
      }
    } finally {
      delete counter.log;
    }
    const pages = log.filter((s) => /order by "file_entries"."updated_at" desc/.test(s.sql));
    expect(pages).toHaveLength(3);
    for (const page of pages) {
      const plan = await servicesOf(t.app)
        .db.kysely.transaction()
        .execute(async (trx) => {
          await sql`set local enable_seqscan = off`.execute(trx);
          return trx.executeQuery<{ 'QUERY PLAN': string }>({ ...sql``.compile(trx), sql: `explain ${page.sql}`, parameters: page.parameters });
        });
      const lines = plan.rows.map((row) => row['QUERY PLAN']);
      expect(
        lines.filter((line) => /Sort/.test(line)),
        lines.join('\n'),
      ).toEqual([]);
    }
  });

  it('sums what a payer is charged (before every upload) from an index alone, never each file row', async () => {
    const { user } = await signedInUser(t.app);
    const db = servicesOf(t.app).db;
    const compiled = chargedBytes(db.kysely, user.id).compile();
    if (db.dialect === 'sqlite') {
      const plan = await db.kysely.executeQuery<{ detail: string }>({ ...compiled, sql: `explain query plan ${compiled.sql}` });
      const details = plan.rows.map((row) => row.detail);
      expect(
        details.filter((detail) => /file_entries/.test(detail)),
        details.join('\n'),
      ).toEqual([expect.stringMatching(/USING COVERING INDEX file_entries_charged_index/)]);
    } else {
      const plan = await db.kysely.transaction().execute(async (trx) => {
        // Only an index-only scan is left to the planner: the test is that one can serve the sum.
        await sql`set local enable_seqscan = off`.execute(trx);
        await sql`set local enable_bitmapscan = off`.execute(trx);
        await sql`set local enable_indexscan = off`.execute(trx);
        return trx.executeQuery<{ 'QUERY PLAN': string }>({ ...compiled, sql: `explain ${compiled.sql}` });
      });
      const lines = plan.rows.map((row) => row['QUERY PLAN']);
      expect(lines.join('\n')).toMatch(/Index Only Scan using file_entries_charged_index on file_entries/);
    }
  });

  it('a new file writes no index of file_entries that no statement reads (owner and created, owner and extension)', async () => {
    const db = servicesOf(t.app).db;
    const indexes =
      db.dialect === 'sqlite'
        ? await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'file_entries'`.execute(db.kysely)
        : await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'file_entries'`.execute(db.kysely);
    const names = indexes.rows.map((row) => row.name);
    // The ones that serve those orders and filters stay (the listing's, the recent files').
    expect(names).toEqual(expect.arrayContaining(['file_entries_recent_index', 'file_entries_list_created_index', 'file_entries_child_name_index']));
    expect(names).not.toContain('file_entries_owner_created_index');
    expect(names).not.toContain('file_entries_owner_extension_index');
  });

  it('the check itself reports a statement that reads every row', async () => {
    const placeholder = servicesOf(t.app).db.dialect === 'postgres' ? '$1' : '?';
    const found = await fullScans([{ sql: `select * from "file_entries" where "file_size" + 1 > ${placeholder}`, parameters: [0] }]);
    expect(found).toHaveLength(1);
  });

  it('a name search with few matches reads them first, by id; with more it walks the space in the listing order', async () => {
    const { user } = await signedInUser(t.app);
    for (let i = 0; i < 4; i += 1) await uploadFile(t.app, user, { name: `grand ledger ${i}.txt` });
    const db = servicesOf(t.app).db;
    const actor = await actorFor(t.app, user);
    const scope = await servicesOf(t.app).drive.scope(actor, null);
    const statementsOf = async (candidates: number, walkRows?: number) => {
      const counter = db.counter;
      const log: NonNullable<typeof counter.log> = [];
      counter.log = log;
      try {
        const listing = new DriveListing(db.kysely, createNameSearch(db.dialect, { candidates, ...(walkRows ? { walkRows } : {}) }));
        const page = await listing.list(actor, scope, { query: 'grand ledger', perPage: 50, folderId: '0' } as ListQuery);
        expect(page.pagination.data).toHaveLength(4);
      } finally {
        delete counter.log;
      }
      return log;
    };
    if (db.dialect === 'postgres') {
      // On a table of a few rows any plan is as good; with a drive's worth of the user's rows and their
      // statistics (as autovacuum keeps them) the planner shows what it does at size. Last in this file:
      // the statistics would otherwise change the plans the tests above pin.
      await sql`insert into file_entries (hash, name, type, file_size, owner_id, path, created_at, updated_at)
        select 'filler' || g, 'filler ' || g || '.txt', 'text', 1, ${user.id}, '', now(), now() - g * interval '1 second'
        from generate_series(1, 5000) g`.execute(db.kysely);
      await sql`analyze file_entries`.execute(db.kysely);
    }
    const few = await statementsOf(10);
    // More matches than the cap: dense among the rows here, so SQLite walks the space testing each name; with
    // a walk of one row nothing is dense, so the space is walked against the index's list of matches.
    const walked = await statementsOf(3);
    const many = await statementsOf(3, 1);
    expect(await fullScans([...few, ...walked, ...many])).toEqual([]);
    // The page's statement (PostgreSQL's list of matches is in the listing's order too, but names no candidate).
    const fewPage = few.find((s) => /order by/.test(s.sql) && /"file_entries"/.test(s.sql) && /candidate/.test(s.sql))!;
    const manyPage = many.find((s) => /order by/.test(s.sql) && /"file_entries"/.test(s.sql))!;
    if (db.dialect === 'sqlite') {
      const detailsOf = async (statement: { sql: string; parameters: readonly unknown[] }) =>
        (
          await db.kysely.executeQuery<{ detail: string }>({
            ...sql``.compile(db.kysely),
            sql: `explain query plan ${statement.sql}`,
            parameters: statement.parameters,
          })
        ).rows.map((row) => row.detail);
      // The matches are listed from the trigram index alone, at most the cap and one.
      const listed = few.find((s) => /json_group_array/.test(s.sql))!;
      expect((await detailsOf(listed)).join('\n')).toMatch(/SCAN file_entries_search VIRTUAL TABLE INDEX/);
      // Few: the matches' ids come first and every file_entries row is looked up by its id (the
      // page's ids picked from the matches, then that page's rows): no walk over the space's rows.
      const fewPlan = await detailsOf(fewPage);
      expect(fewPlan.join('\n')).toMatch(/SCAN (json_each VIRTUAL TABLE|candidate)/);
      const reads = fewPlan.filter((d) => /^(SCAN|SEARCH) file_entries\b/.test(d));
      expect(reads.length, fewPlan.join('\n')).toBeGreaterThanOrEqual(2);
      expect(
        reads.filter((d) => !/^SEARCH file_entries USING INTEGER PRIMARY KEY \(rowid=\?\)/.test(d)),
        fewPlan.join('\n'),
      ).toEqual([]);
      // Many and dense: the space's first rows in the listing's order (no sort of the space), each name tested
      // on its own, the index left alone; only the page's ≤ 51 rows are sorted, by the statement that reads them.
      const walkPage = walked.find((s) => /order by/.test(s.sql) && /"file_entries"/.test(s.sql))!;
      expect(walkPage.sql).toMatch(/name_contains_folded/);
      expect(walkPage.sql).not.toMatch(/file_entries_search/);
      const walkPlan = (await detailsOf(walkPage)).join('\n');
      expect(walkPlan).toMatch(/CO-ROUTINE walked\nSEARCH file_entries USING INDEX file_entries_owner_updated_index \(owner_id=\?\)\nSCAN walked\n/);
      expect(walkPlan.match(/TEMP B-TREE/g), walkPlan).toHaveLength(1);
      // Many: the space's rows in the listing's order (no sort), each tested against the matches.
      const manyPlan = await detailsOf(manyPage);
      expect(manyPlan.join('\n')).toMatch(/SEARCH file_entries USING INDEX file_entries_owner_updated_index \(owner_id=\?\)/);
      expect(manyPlan.join('\n')).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
    } else {
      const linesOf = async (statement: { sql: string; parameters: readonly unknown[] }) =>
        db.kysely.transaction().execute(async (trx) => {
          await sql`set local enable_seqscan = off`.execute(trx);
          const plan = await trx.executeQuery<{ 'QUERY PLAN': string }>({
            ...sql``.compile(trx),
            sql: `explain ${statement.sql}`,
            parameters: statement.parameters,
          });
          return plan.rows.map((row) => row['QUERY PLAN']).join('\n');
        });
      const listed = few.find((s) => /ilike/.test(s.sql) && /limit/.test(s.sql) && !/candidate/.test(s.sql))!;
      // The matches from the trigram index, capped first, then only those put in the listing's order.
      const listedPlan = await linesOf(listed);
      expect(listedPlan).toMatch(
        /Sort Key: file_entries\.updated_at DESC, file_entries\.id DESC\n\s+-> {2}Limit[^\n]*\n\s+-> {2}Bitmap Heap Scan[^\n]*\n[^\n]*\n\s+-> {2}Bitmap Index Scan on file_entries_name_trgm_index/,
      );
      // The index is asked for the words' ends only (db/search.ts sparsePattern: fewer trigram lists to walk); the
      // exact test is no condition of the scan, so it neither reaches the index nor narrows the planner's estimate.
      expect(listedPlan).toMatch(/Index Cond: \(\(name\)::text ~~\* '%gra% le%ger%'::text\)/);
      expect(listedPlan).not.toMatch(/Filter:/);
      // Few: the page's ids read from the list in its order, each looked up by id, and the read stopped at the
      // page (no sort of the matches); only those rows then joined and presented.
      const fewPlan = await linesOf(fewPage);
      expect(fewPlan).toMatch(
        /Limit[^\n]*\n\s+-> {2}Nested Loop[^\n]*\n\s+-> {2}Function Scan on unnest listed[^\n]*\n\s+-> {2}Index Scan using file_entries_pkey on file_entries file_entries_1[^\n]*\n\s+Index Cond: \(id = listed\.entry_id\)/,
      );
      expect(fewPlan).not.toMatch(/Sort Key: file_entries_1\./);
      expect(manyPage.sql).toMatch(/ilike/);
    }
  });
});
