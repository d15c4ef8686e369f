import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servicesOf } from '../support/services-handle.js';
import { signedInUser } from '../support/drive-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { basic, dav, davToken } from '../versions/support.js';

/**
 * A new entry's id and path are written together (on SQLite in one statement that picks the id AUTOINCREMENT
 * would, drive/repository.ts insertEntry): an id is never given twice, even after the newest entry was deleted
 * forever, and every path is the parent's path and the entry's own id.
 */
describe('new entries: ids and paths', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('never reuses the id of an entry deleted forever, and each path ends in the entry’s own id', async () => {
    const { user } = await signedInUser(t.app);
    const db = servicesOf(t.app).db.kysely;
    const auth = basic(await davToken(t.app, user.id));
    const row = (name: string) =>
      db.selectFrom('file_entries').select(['id', 'path', 'parent_id']).where('owner_id', '=', user.id).where('name', '=', name).executeTakeFirstOrThrow();
    expect((await dav(t.app, 'MKCOL', '/dav/My%20drive/folder', auth)).statusCode).toBe(201);
    expect((await dav(t.app, 'PUT', '/dav/My%20drive/folder/first.txt', auth, 'one')).statusCode).toBe(201);
    const folder = await row('folder');
    const first = await row('first.txt');
    expect(folder.path).toBe(String(folder.id));
    expect(first.path).toBe(`${folder.id}/${first.id}`);
    expect(first.parent_id).toBe(folder.id);

    // The newest row of the whole table goes for good; the next entry still gets a new id.
    const newest = Number(
      (
        await db
          .selectFrom('file_entries')
          .select((eb) => eb.fn.max('id').as('id'))
          .executeTakeFirstOrThrow()
      ).id,
    );
    expect(newest).toBe(first.id);
    await db.deleteFrom('file_entries').where('id', '=', first.id).execute();
    expect((await dav(t.app, 'PUT', '/dav/My%20drive/folder/second.txt', auth, 'two')).statusCode).toBe(201);
    const second = await row('second.txt');
    expect(second.id).toBeGreaterThan(first.id);
    expect(second.path).toBe(`${folder.id}/${second.id}`);
  });
});
