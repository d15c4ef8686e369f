import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../support/factories.js';
import { servicesOf } from '../support/services-handle.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/**
 * SQLite plans on a bound LIMIT's value and so prepares such a statement anew
 * every time it is bound (every run, in better-sqlite3): a whole-number limit
 * is written into the statement instead (db/inline-limit.ts).
 */
describe('a LIMIT', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  const db = () => servicesOf(t.app).db.kysely;
  const sqlite = () => servicesOf(t.app).db.dialect === 'sqlite';

  it('is written into an SQLite statement as a number, and stays bound on PostgreSQL', () => {
    const compiled = db().selectFrom('users').select('id').where('id', '=', 7).orderBy('id').limit(1).offset(3).compile();
    if (sqlite()) {
      expect(compiled.sql).toMatch(/ limit 1 offset \?$/);
      expect(compiled.parameters).toEqual([7, 3]);
    } else {
      expect(compiled.sql).toMatch(/ limit \$2 offset \$3$/);
      expect(compiled.parameters).toEqual([7, 1, 3]);
    }
  });

  it('still limits, in a subquery too, and a limit that is not a whole number stays a bound value', async () => {
    const users = [await createUser(db()), await createUser(db()), await createUser(db())];
    const ids = users.map((u) => u.id);
    const some = (limit: number) => db().selectFrom('users').select('id').where('id', 'in', ids).orderBy('id').limit(limit).execute();
    expect((await some(0)).map((r) => r.id)).toEqual([]);
    expect((await some(2)).map((r) => r.id)).toEqual(ids.slice(0, 2));
    const inner = db().selectFrom('users').select('id').where('id', 'in', ids).orderBy('id', 'desc').limit(1);
    expect(await db().selectFrom('users').select('email').where('id', 'in', inner).execute()).toEqual([{ email: users[2]!.email }]);
    const fractional = db().selectFrom('users').select('id').limit(1.5).compile();
    expect(fractional.sql).not.toMatch(/limit 1\.5/);
  });
});
