import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNameSearch } from '../../../server/db/search.js';
import { signedInUser, uploadFile } from '../support/drive-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
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
});
