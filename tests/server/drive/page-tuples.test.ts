import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entriesQuery, entryFromTuple, PAGE_TUPLE_REST, pageTuplesQuery, type PageEntry } from '../../../server/modules/drive/listing.repository.js';
import { TUPLES_MARK } from '../../../server/db/tuples.js';
import { createFolder, signedInUser, uploadFile } from '../support/drive-factories.js';
import { createUser } from '../support/factories.js';
import { servicesOf } from '../support/services-handle.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/**
 * Issue 38 §3: a folder page reads its rows as arrays and builds each entry
 * itself (listing.repository.ts entryFromTuple). Each field must be the one the named
 * rows of entriesQuery hold, on both dialects.
 */
describe('a listing page read as tuples', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('builds the same entries as the named rows, field by field', async () => {
    const db = servicesOf(t.app).db.kysely;
    const { user, client } = await signedInUser(t.app);
    const other = await createUser(db);
    const folder = await createFolder(client, 'Folder');
    const starred = await uploadFile(t.app, user, { name: 'starred.pdf', parentId: folder });
    const shared = await uploadFile(t.app, user, { name: 'shared.txt', parentId: folder });
    const trashed = await uploadFile(t.app, user, { name: 'trashed.png', parentId: folder });
    await db.insertInto('file_entry_stars').values({ user_id: user.id, entry_id: starred.id, created_at: new Date().toISOString() }).execute();
    const now = new Date().toISOString();
    await db
      .insertInto('entry_shares')
      .values({ entry_id: shared.id, user_id: other.id, permission: 'view', shared_by: user.id, created_at: now, updated_at: now })
      .execute();
    await db.updateTable('file_entries').set({ description: 'gone', deleted_at: now, purge_at: now }).where('id', '=', trashed.id).execute();

    const named = await entriesQuery(db, user.id).where('file_entries.owner_id', '=', user.id).orderBy('file_entries.id').execute();
    const compiled = pageTuplesQuery(db, user.id)
      .where('file_entries.owner_id', '=', user.id)
      .orderBy('file_entries.id')
      .select('file_entries.id as k0')
      .compile();
    // Through the driver as a page runs it: the mark asks for arrays.
    const { rows } = await db.executeQuery<readonly unknown[]>({ ...compiled, sql: TUPLES_MARK + compiled.sql });
    expect(rows.every((row) => Array.isArray(row))).toBe(true);
    expect(rows.map((row) => row[PAGE_TUPLE_REST])).toEqual(named.map((row) => row.id));

    const built = rows.map(entryFromTuple);
    const fields = Object.keys(built[0]!) as (keyof PageEntry)[];
    expect(built).toEqual(named.map((row) => Object.fromEntries(fields.map((field) => [field, row[field]]))));
    // What the page is made of: a folder, a starred, a shared and a trashed file with its description.
    expect(built.map((entry) => [entry.name, entry.type === 'folder', entry.starred_by, Boolean(entry.shared), entry.deleted_at !== null])).toEqual([
      ['Folder', true, null, false, false],
      ['starred.pdf', false, user.id, false, false],
      ['shared.txt', false, null, true, false],
      ['trashed.png', false, null, false, true],
    ]);
    expect(built.every((entry) => entry.owner_email === user.email && entry.owner_first_name === 'Test')).toBe(true);
  });
});
