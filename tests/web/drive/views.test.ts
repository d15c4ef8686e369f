import { describe, expect, it } from 'vitest';
import { DRIVE_VIEWS, folderPath, listingKey, listingQuery } from '../../../src/features/drive/lib/views';
import type { ListingParams } from '../../../src/features/drive/lib/views';

const folder = (permissions: string[]) => ({ hash: 'abc', name: 'Docs', permissions });

describe('drive listing views (spec §3, §9)', () => {
  it('has one view per drive route', () => {
    expect(Object.values(DRIVE_VIEWS).map((v) => v.path)).toEqual([
      '/drive',
      '/drive/recent',
      '/drive/sql',
      '/drive/search',
      '/drive/shares',
      '/drive/trash',
      '/drive/starred',
    ]);
    expect(folderPath('0')).toBe('/drive');
    expect(folderPath('abc')).toBe('/drive/folders/abc');
  });

  it('sorts by updated_at desc, except recent and SQL by created_at desc', () => {
    for (const view of Object.values(DRIVE_VIEWS)) {
      const expected = view.id === 'recent' || view.id === 'sql' ? 'created_at' : 'updated_at';
      expect(view.sort).toEqual({ orderBy: expected, orderDir: 'desc' });
    }
  });

  it('sets each view its query flag', () => {
    expect(DRIVE_VIEWS.recent.flags).toEqual({ recentOnly: true });
    expect(DRIVE_VIEWS.sql.flags).toEqual({ sqlOnly: true });
    expect(DRIVE_VIEWS.shares.flags).toEqual({ sharedOnly: true });
    expect(DRIVE_VIEWS.trash.flags).toEqual({ deletedOnly: true });
    expect(DRIVE_VIEWS.starred.flags).toEqual({ starredOnly: true });
    expect(DRIVE_VIEWS.folder.flags).toEqual({});
    expect(DRIVE_VIEWS.search.flags).toEqual({});
  });

  it('allows upload in a folder only with files.update, always in SQL, never elsewhere', () => {
    expect(DRIVE_VIEWS.folder.canUpload(folder(['files.view', 'files.update']))).toBe(true);
    expect(DRIVE_VIEWS.folder.canUpload(folder(['files.view']))).toBe(false);
    expect(DRIVE_VIEWS.folder.canUpload(null)).toBe(false);
    expect(DRIVE_VIEWS.sql.canUpload(null)).toBe(true);
    expect(DRIVE_VIEWS.sql.canUpload(folder([]))).toBe(true);
    for (const id of ['recent', 'search', 'shares', 'trash', 'starred'] as const) {
      expect(DRIVE_VIEWS[id].canUpload(folder(['files.update']))).toBe(false);
    }
  });

  it('gives page actions to folders, SQL and trash', () => {
    const withActions = Object.values(DRIVE_VIEWS)
      .filter((v) => v.hasActions)
      .map((v) => v.id);
    expect(withActions).toEqual(['folder', 'sql', 'trash']);
  });

  it('builds the list query: flags as true, folder only where it scopes, cursor when paging', () => {
    const trash: ListingParams = { view: 'trash', folderId: 'abc', sort: DRIVE_VIEWS.trash.sort };
    expect(listingQuery(trash, null, 100)).toEqual({ perPage: 100, orderBy: 'updated_at', orderDir: 'desc', deletedOnly: 'true' });
    const inFolder: ListingParams = { view: 'folder', folderId: 'abc', sort: { orderBy: 'name', orderDir: 'asc' } };
    expect(listingQuery(inFolder, 'next', 50)).toEqual({ perPage: 50, orderBy: 'name', orderDir: 'asc', folderId: 'abc', cursor: 'next' });
    const search: ListingParams = {
      view: 'search',
      folderId: '0',
      sort: DRIVE_VIEWS.search.sort,
      search: { query: '  rep ', type: 'pdf', modifiedFrom: '2026-01-01' },
    };
    expect(listingQuery(search, null, 100)).toMatchObject({ folderId: '0', query: 'rep', type: 'pdf', modifiedFrom: '2026-01-01' });
  });

  it('keys listings by view, folder, sort and filters', () => {
    const base: ListingParams = { view: 'folder', folderId: 'a', sort: DRIVE_VIEWS.folder.sort };
    expect(listingKey(base)).not.toBe(listingKey({ ...base, folderId: 'b' }));
    expect(listingKey(base)).not.toBe(listingKey({ ...base, sort: { orderBy: 'name', orderDir: 'asc' } }));
    expect(listingKey({ view: 'trash', folderId: 'a', sort: DRIVE_VIEWS.trash.sort })).toBe(
      listingKey({ view: 'trash', folderId: 'b', sort: DRIVE_VIEWS.trash.sort }),
    );
  });
});
