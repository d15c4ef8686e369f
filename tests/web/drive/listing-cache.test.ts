import { afterEach, describe, expect, it } from 'vitest';
import { DriveDatabase } from '../../../src/offline/db';
import {
  forgetEntries,
  putEntries,
  readFolderTree,
  readListing,
  removeFromListings,
  replaceFolderTree,
  writeListingPage,
} from '../../../src/offline/listing-cache';
import { makeEntry } from './entries';

let db: DriveDatabase;
let counter = 0;
const open = () => (db = new DriveDatabase(`drive-cache-test-${(counter += 1)}`));
const folder = { hash: '0', name: '', permissions: ['files.update'] };

afterEach(async () => {
  await db.delete();
});

describe('the Dexie listing cache', () => {
  it('knows nothing of a listing it never stored', async () => {
    open();
    expect(await readListing(db, 'folder:0')).toBeUndefined();
  });

  it('writes a page and reads it back first, in the server order, with the folder', async () => {
    open();
    const a = makeEntry({ id: 'a', name: 'A' });
    const b = makeEntry({ id: 'b', name: 'B' });
    await writeListingPage(db, 'folder:0', { entries: [b, a], folder, nextCursor: 'c1', total: null }, { replace: true });
    const stored = await readListing(db, 'folder:0');
    expect(stored?.entries.map((e) => e.name)).toEqual(['B', 'A']);
    expect(stored?.folder).toEqual(folder);
    expect(stored?.nextCursor).toBe('c1');
  });

  it('appends the next cursor page and replaces the whole listing when the first page is fetched again', async () => {
    open();
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((id) => makeEntry({ id, name: id.toUpperCase() }));
    await writeListingPage(db, 'k', { entries: [a!, b!], folder, nextCursor: 'c1', total: null }, { replace: true });
    await writeListingPage(db, 'k', { entries: [b!, c!], folder: null, nextCursor: null, total: null }, { replace: false });
    expect((await readListing(db, 'k'))?.entries.map((e) => e.id)).toEqual(['a', 'b', 'c']);
    expect((await readListing(db, 'k'))?.folder).toEqual(folder);

    // Revalidation: the server's first page is the truth now (b renamed, a and c gone, d new).
    const renamed = { ...b!, name: 'B2' };
    await writeListingPage(db, 'k', { entries: [d!, renamed], folder, nextCursor: null, total: 2 }, { replace: true });
    const stored = await readListing(db, 'k');
    expect(stored?.entries.map((e) => e.name)).toEqual(['D', 'B2']);
    expect(stored?.total).toBe(2);
  });

  it('patches entries in every listing and drops moved or deleted ones', async () => {
    open();
    const a = makeEntry({ id: 'a', name: 'A' });
    const b = makeEntry({ id: 'b', name: 'B' });
    await writeListingPage(db, 'one', { entries: [a, b], folder, nextCursor: null, total: 2 }, { replace: true });
    await writeListingPage(db, 'two', { entries: [a], folder: null, nextCursor: null, total: 1 }, { replace: true });
    await putEntries(db, [{ ...a, is_starred: true }]);
    expect((await readListing(db, 'two'))?.entries[0]?.is_starred).toBe(true);
    await removeFromListings(db, ['a']);
    expect((await readListing(db, 'one'))?.entries.map((e) => e.id)).toEqual(['b']);
    expect((await readListing(db, 'two'))?.entries).toEqual([]);
    await forgetEntries(db, ['b']);
    expect(await db.entries.get('b')).toBeUndefined();
  });

  it('replaces the stored folder tree', async () => {
    open();
    await replaceFolderTree(db, [{ hash: 'x', name: 'X', parent_id: null }]);
    await replaceFolderTree(db, [{ hash: 'y', name: 'Y', parent_id: null }]);
    expect((await readFolderTree(db)).map((f) => f.hash)).toEqual(['y']);
  });
});
