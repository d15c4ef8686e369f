import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createNameSearch } from '../../../server/db/search.js';
import { DriveListing } from '../../../server/modules/drive/listing.js';
import type { ListQuery } from '../../../server/modules/drive/schemas.js';
import { actorFor, signedInUser, uploadFile } from '../support/drive-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

/**
 * A search page is built from the search index's matches when they are few
 * (the page's statement reads them first, by id), and from the name condition when there are more, or the
 * text is too short for a trigram. Either way the listing shows the same
 * entries, in the same order, under the same access rules and filters.
 */
describe('search pages built from the matches', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('picks the matches or the name condition by their number, with the same pages', async () => {
    const { user, client } = await signedInUser(t.app);
    for (const name of ['alpha report.txt', 'beta report.txt', 'gamma report.txt', 'alpha notes.txt']) await uploadFile(t.app, user, { name });
    const trashed = await uploadFile(t.app, user, { name: 'old report.txt' });
    expect((await client.post('/api/v1/file-entries/delete', { entryIds: [trashed.hash] })).statusCode).toBe(200);
    // Someone else's match counts towards the cap but never shows.
    const other = await signedInUser(t.app);
    await uploadFile(t.app, other.user, { name: 'delta report.txt' });
    const db = servicesOf(t.app).db.kysely;
    const dialect = servicesOf(t.app).db.dialect;
    const compiled = async (search: ReturnType<typeof createNameSearch>, text: string, alone = true) => {
      const match = await search.match(db, text, { alone });
      return { condition: sql`${match.condition}`.compile(db).sql, from: match.from !== null };
    };

    // Five matches: alpha, beta, gamma, old (trashed) and delta (someone else's).
    const roomy = createNameSearch(dialect, { candidates: 10 });
    const tight = createNameSearch(dialect, { candidates: 4 });
    if (dialect === 'postgres') {
      expect(await compiled(roomy, 'report')).toEqual({ condition: expect.stringContaining('= any('), from: true });
      expect(await compiled(tight, 'report')).toEqual({ condition: expect.stringContaining('ilike'), from: false });
      // One side of content search's OR: the condition, never the matches as the statement's start.
      expect(await compiled(roomy, 'report', false)).toEqual({ condition: expect.stringContaining('= any('), from: false });
      expect(await compiled(roomy, 're')).toEqual({ condition: expect.stringContaining('ilike'), from: false });
    } else {
      expect(await compiled(roomy, 'report')).toEqual({ condition: expect.stringContaining('json_each'), from: true });
      expect(await compiled(tight, 'report')).toEqual({ condition: expect.stringContaining('file_entries_search'), from: false });
      // One side of content search's OR: the condition, never the matches as the statement's start.
      expect(await compiled(roomy, 'report', false)).toEqual({ condition: expect.stringContaining('file_entries_search'), from: false });
      expect(await compiled(roomy, 're')).toEqual({ condition: expect.stringContaining(' like '), from: false });
    }

    const actor = await actorFor(t.app, user);
    const scope = await servicesOf(t.app).drive.scope(actor, null);
    const list = (search: ReturnType<typeof createNameSearch>, text: string, more: Partial<ListQuery> = {}) =>
      new DriveListing(db, search).list(actor, scope, { query: text, perPage: 50, orderBy: 'name', orderDir: 'asc', folderId: '0', ...more } as ListQuery);
    const names = async (...args: Parameters<typeof list>) => (await list(...args)).pagination.data.map((e) => e.name);
    // SQLite, many matches: the space's first rows are walked in date order with each name tested; a walk
    // too short for the page falls back on the index's list. PostgreSQL has no walk of its own (ILIKE is one).
    const walking = createNameSearch(dialect, { candidates: 4, walkRows: 1000 });
    const shortWalk = createNameSearch(dialect, { candidates: 4, walkRows: 2 });
    if (dialect === 'sqlite') {
      expect((await walking.match(db, 'report', { alone: true })).walk).not.toBeNull();
      expect((await walking.match(db, 'report', { alone: false })).walk).toBeNull();
      expect((await roomy.match(db, 'report', { alone: true })).walk).toBeNull();
    }
    for (const search of [walking, shortWalk]) {
      const byDate = { orderBy: 'updated_at', orderDir: 'desc' } as const;
      expect(await names(search, 'REPORT', byDate)).toEqual(['gamma report.txt', 'beta report.txt', 'alpha report.txt']);
      expect(await names(search, 'report', { orderBy: 'created_at', orderDir: 'asc' })).toEqual(['alpha report.txt', 'beta report.txt', 'gamma report.txt']);
      expect(await names(search, 'report', { ...byDate, deletedOnly: true })).toEqual(['old report.txt']);
      expect(await names(search, 'report', { ...byDate, owner: 'others' })).toEqual([]);
      expect(await names(search, 'report', { ...byDate, type: 'folder' })).toEqual([]);
      const first = await list(search, 'report', { ...byDate, perPage: 2 });
      expect(first.pagination.data.map((e) => e.name)).toEqual(['gamma report.txt', 'beta report.txt']);
      expect(await names(search, 'report', { ...byDate, perPage: 2, cursor: first.pagination.next_cursor! })).toEqual(['alpha report.txt']);
      const second = await list(search, 'report', { ...byDate, perPage: 2, page: 2 });
      expect(second.pagination.data.map((e) => e.name)).toEqual(['alpha report.txt']);
      expect(second.pagination.total).toBe(3);
    }
    for (const search of [roomy, tight]) {
      expect(await names(search, 'report')).toEqual(['alpha report.txt', 'beta report.txt', 'gamma report.txt']);
      expect(await names(search, 'REPORT', { orderBy: 'updated_at', orderDir: 'desc' })).toEqual(['gamma report.txt', 'beta report.txt', 'alpha report.txt']);
      expect(await names(search, 'nothing like it')).toEqual([]);
      expect(await names(search, 'report', { deletedOnly: true })).toEqual(['old report.txt']);
      expect(await names(search, 'report', { owner: 'others' })).toEqual([]);
      expect(await names(search, 'alpha', { type: 'folder' })).toEqual([]);
      // Numbered pages count through the same reading; cursors carry on from it.
      const counted = await list(search, 'report', { page: 1, perPage: 2 });
      expect(counted.pagination.total).toBe(3);
      const first = await list(search, 'report', { perPage: 2 });
      expect(first.pagination.data.map((e) => e.name)).toEqual(['alpha report.txt', 'beta report.txt']);
      expect(await names(search, 'report', { perPage: 2, cursor: first.pagination.next_cursor! })).toEqual(['gamma report.txt']);
    }
    // PostgreSQL hands the few matches over in the listing's order and reads the page in that order: every
    // order and page reads the same as through the name condition.
    for (const orderBy of ['name', 'updated_at', 'created_at', 'file_size', 'type'] as const)
      for (const orderDir of ['asc', 'desc'] as const)
        for (const page of [1, 2]) {
          const paged = { orderBy, orderDir, perPage: 2, page };
          expect(await names(roomy, 'report', paged), `${orderBy} ${orderDir} page ${page}`).toEqual(await names(tight, 'report', paged));
        }
  });

  it("lists only the names containing the query, not every name the index's sparser pattern finds", async () => {
    const { user } = await signedInUser(t.app);
    // Each holds the pieces PostgreSQL asks its trigram index for (`%inv%ice% 12%`), one also the query.
    for (const name of ['inventory notice 12.txt', 'Invoice 12.txt', 'invoice 1 2.txt']) await uploadFile(t.app, user, { name });
    const db = servicesOf(t.app).db;
    const actor = await actorFor(t.app, user);
    const scope = await servicesOf(t.app).drive.scope(actor, null);
    for (const candidates of [10, 2, 1]) {
      const listing = new DriveListing(db.kysely, createNameSearch(db.dialect, { candidates }));
      const page = await listing.list(actor, scope, { query: 'invoice 12', perPage: 50, folderId: '0' } as ListQuery);
      expect(
        page.pagination.data.map((e) => e.name),
        `cap ${candidates}`,
      ).toEqual(['Invoice 12.txt']);
    }
  });
});
