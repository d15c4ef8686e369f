import { describe, expect, it } from 'vitest';
import { readOfflineFallback } from '../../../src/features/drive/api/offline-read';
import type { listingKey } from '../../../src/features/drive/lib/views';
import { driveDatabase } from '../../../src/offline/db';
import { folderListingKey, writeListingPage } from '../../../src/offline/listing-cache';
import { makeEntry } from './entries';

// Offline, the drive shows what the device holds even under a key it never
// stored: a pinned folder (stored in the default sort) in the user's sort, and
// a search over every entry seen or pinned.

describe('listings offline from what the device holds', () => {
  it('searches every stored entry by name words, type and modified day, leaving out the trash', async () => {
    const db = driveDatabase('offline-search', 0);
    await db.entries.bulkPut([
      makeEntry({ id: 'a', name: 'Trip plan.docx', type: 'word', updated_at: '2026-11-20T10:00:00Z' }),
      makeEntry({ id: 'b', name: 'trip photos', type: 'folder', updated_at: '2026-11-21T10:00:00Z' }),
      makeEntry({ id: 'c', name: 'Budget.xlsx', type: 'spreadsheet', updated_at: '2026-11-22T10:00:00Z' }),
      makeEntry({ id: 'd', name: 'Old trip.docx', type: 'word', deleted_at: '2026-11-23T00:00:00Z' }),
    ]);
    const sort = { orderBy: 'name', orderDir: 'asc' } as const;
    const search = async (filters: Parameters<typeof listingKey>[0]['search']) =>
      (await readOfflineFallback(db, { view: 'search', folderId: '0', sort, search: filters }))?.entries.map((e) => e.id);
    expect(await search({ query: 'TRIP' })).toEqual(['b', 'a']); // 'trip photos' before 'Trip plan.docx' by name
    expect(await search({ query: 'trip plan' })).toEqual(['a']);
    expect(await search({ query: 'trip', type: 'folder' })).toEqual(['b']);
    expect(await search({ modifiedFrom: '2026-11-21', modifiedTo: '2026-11-21' })).toEqual(['b']);
  });

  it('shows a folder stored in another sort, sorted as asked', async () => {
    const db = driveDatabase('offline-sort', 0);
    const entries = [makeEntry({ id: 'x', name: 'b.txt', file_size: 5 }), makeEntry({ id: 'y', name: 'a.txt', file_size: 9 })];
    await writeListingPage(db, folderListingKey('f1'), { entries, folder: null, nextCursor: null, total: 2 }, { replace: true });
    const shown = await readOfflineFallback(db, { view: 'folder', folderId: 'f1', sort: { orderBy: 'name', orderDir: 'asc' } });
    expect(shown?.entries.map((e) => e.id)).toEqual(['y', 'x']);
    const bySize = await readOfflineFallback(db, { view: 'folder', folderId: 'f1', sort: { orderBy: 'file_size', orderDir: 'desc' } });
    expect(bySize?.entries.map((e) => e.id)).toEqual(['y', 'x']);
    expect(await readOfflineFallback(db, { view: 'folder', folderId: 'never-seen', sort: { orderBy: 'name', orderDir: 'asc' } })).toBeUndefined();
  });
});
