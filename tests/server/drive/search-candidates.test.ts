import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createNameSearch } from '../../../server/db/search.js';
import { DriveListing } from '../../../server/modules/drive/listing.js';
import type { ListQuery } from '../../../server/modules/drive/schemas.js';
import { actorFor, signedInUser, uploadFile } from '../support/drive-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

/**
 * A search page's condition: on PostgreSQL the matches' ids when the trigram
 * index finds few (the planner's date-order walk was 13–17 ms over 100k), the
 * name condition itself when there are more, or the text is too short for a
 * trigram. Either way the listing shows the same entries, in the same order.
 */
describe('search pages built from the matches', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('picks the ids or the name condition by the number of matches, with the same page', async () => {
    const { user } = await signedInUser(t.app);
    for (const name of ['alpha report.txt', 'beta report.txt', 'gamma report.txt', 'alpha notes.txt']) await uploadFile(t.app, user, { name });
    // Someone else's match counts towards the limit but never shows.
    const other = await signedInUser(t.app);
    await uploadFile(t.app, other.user, { name: 'delta report.txt' });
    const db = servicesOf(t.app).db.kysely;
    const dialect = servicesOf(t.app).db.dialect;
    const compiled = async (search: ReturnType<typeof createNameSearch>, text: string) => sql`${await search.listingCondition(db, text)}`.compile(db).sql;

    const roomy = createNameSearch(dialect, { candidates: 10 });
    const tight = createNameSearch(dialect, { candidates: 3 });
    if (dialect === 'postgres') {
      expect(await compiled(roomy, 'report')).toContain('= any(');
      expect(await compiled(tight, 'report')).toContain('ilike');
      expect(await compiled(roomy, 're')).toContain('ilike');
    } else {
      expect(await compiled(roomy, 'report')).toContain('file_entries_search');
    }

    const actor = await actorFor(t.app, user);
    const scope = await servicesOf(t.app).drive.scope(actor, null);
    const names = async (search: ReturnType<typeof createNameSearch>, text: string) => {
      const page = await new DriveListing(db, search).list(actor, scope, {
        query: text,
        perPage: 50,
        orderBy: 'name',
        orderDir: 'asc',
        folderId: '0',
      } as ListQuery);
      return page.pagination.data.map((e) => e.name);
    };
    for (const search of [roomy, tight]) {
      expect(await names(search, 'report')).toEqual(['alpha report.txt', 'beta report.txt', 'gamma report.txt']);
      expect(await names(search, 'nothing like it')).toEqual([]);
    }
  });
});
