import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNameSearch } from '../../../server/db/search.js';
import { signedInUser, uploadFile } from '../support/drive-factories.js';
import { createTestApp, DIALECT, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

/** Issue 10 finding 3: no search text, however odd, makes the database fail (both dialects). */
describe('name search with any input', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('refuses control characters in the query with 422, not a 500', async () => {
    const { client } = await signedInUser(t.app);
    for (const query of ['a\u0000b', 'abc\u0000', '\u0007bell', 'tab\tname']) {
      const res = await client.get(`/api/v1/drive/file-entries?query=${encodeURIComponent(query)}`);
      expect(res.statusCode, JSON.stringify(query)).toBe(422);
      expect(res.json().errors.query).toEqual(['The search may not contain control characters.']);
    }
  });

  it('builds a safe condition for 500 random Unicode strings, seeded', async () => {
    const { user } = await signedInUser(t.app);
    await uploadFile(t.app, user, { name: 'invoice "2024" (final)*.pdf' });
    const db = servicesOf(t.app).db.kysely;
    const search = createNameSearch(servicesOf(t.app).db.dialect);
    let seed = 20261123;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const pieces = ['\u0000', '"', "'", '*', '%', '_', '\\', 'NEAR', 'AND', ' OR ', '^', ':', '(', ')', '\uD800', '\uDC00', '😀', 'ß', 'İ', '\u202E', '\uFFFF'];
    const character = () => {
      if (random() < 0.4) return pieces[Math.floor(random() * pieces.length)]!;
      return String.fromCharCode(Math.floor(random() * 0x10000));
    };
    // Both ways a listing reads the matches: through the condition, and (SQLite, few matches) from the matches first.
    const names = async (query: string, alone: boolean) => {
      const match = await search.match(db, query, { alone });
      const rows = await (match.from ? match.from(db) : db.selectFrom('file_entries').where(match.condition)).select('file_entries.name').execute();
      return rows.map((r) => r.name);
    };
    for (let i = 0; i < 500; i += 1) {
      const length = 1 + Math.floor(random() * 12);
      const query = Array.from({ length }, character).join('');
      await expect(names(query, i % 2 === 0), JSON.stringify(query)).resolves.toBeInstanceOf(Array);
    }
    for (const alone of [true, false]) expect(await names('"2024" (f\u0000', alone)).toEqual(['invoice "2024" (final)*.pdf']);
  });

  // A broad search on SQLite tests walked rows' names in JavaScript (db/name-fold.ts): the same query finds the same names.
  it.skipIf(DIALECT !== 'sqlite')('the walk finds what the trigram index finds, for 500 seeded random queries', async () => {
    const { user } = await signedInUser(t.app);
    const stored = ['Straße ſtraße STRASSE.txt', 'ΣΊΣΥΦΟΣ σίσυφος ς.doc', 'İstanbul istanbul ISTANBUL.pdf', 'Ꭰꭰ ϐβ µμ K kelvin.md', 'emoji 😀😀 \uffff.bin'];
    for (const name of stored) await uploadFile(t.app, user, { name });
    const db = servicesOf(t.app).db.kysely;
    // Every match of a query is "many" (cap 0) and dense (a walk as long as any drive here): the walk's check is offered.
    const search = createNameSearch('sqlite', { candidates: 0, walkRows: 1_000_000_000 });
    let seed = 20261202;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const letters = [...stored.join('')];
    let walked = 0;
    for (let i = 0; i < 500; i += 1) {
      // Slices of the stored names with some characters swapped for their other cases or random ones, so that most queries match.
      const start = Math.floor(random() * letters.length);
      const slice = letters.slice(start, start + 3 + Math.floor(random() * 5)).map((c) => {
        const r = random();
        return r < 0.2 ? c.toUpperCase() : r < 0.4 ? c.toLowerCase() : r < 0.45 ? String.fromCharCode(Math.floor(random() * 0x10000)) : c;
      });
      const query = slice.join('');
      const match = await search.match(db, query, { alone: true });
      const indexed = (await db.selectFrom('file_entries').select('name').where(match.condition).orderBy('id').execute()).map((r) => r.name);
      if (!match.walk) {
        // Nothing matched (the capped list was empty), or the text was too short for the index.
        if ([...query].length >= 3) expect(indexed, JSON.stringify(query)).toEqual([]);
        continue;
      }
      walked += 1;
      const check = match.walk.check(sql.ref<string>('name'));
      const tested = (await db.selectFrom('file_entries').select('name').where(check).orderBy('id').execute()).map((r) => r.name);
      expect(tested, JSON.stringify(query)).toEqual(indexed);
    }
    expect(walked).toBeGreaterThan(250);
  });
});
