import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DRIVE_VIEWS, listingKey } from '../../../src/features/drive/lib/views';
import { driveDatabase } from '../../../src/offline/db';
import { writeListingPage } from '../../../src/offline/listing-cache';
import { makeBootstrap, makeUser } from '../fixtures';
import { makeEntry } from './entries';
import { renderApp } from '../render-app';

afterEach(() => vi.unstubAllGlobals());

describe('the drive paints from IndexedDB first', () => {
  it('shows a folder stored on the device while the server has not answered', async () => {
    // The server never answers in this test.
    vi.stubGlobal('fetch', () => new Promise<Response>(() => undefined));
    const user = makeUser({ id: 4242 });
    const db = driveDatabase(user.id, '0');
    const key = listingKey({ view: 'folder', folderId: '0', sort: DRIVE_VIEWS.folder.sort });
    await writeListingPage(
      db,
      key,
      { entries: [makeEntry({ id: 'k1', name: 'Kept offline' })], folder: { hash: '0', name: '', permissions: [] }, nextCursor: null, total: 1 },
      { replace: true },
    );

    renderApp('/drive', makeBootstrap({ user }));
    expect(await screen.findByRole('heading', { name: 'Drive' })).toBeTruthy();
    expect(await screen.findByRole('listbox', { name: 'Drive' })).toBeTruthy();
    await db.delete();
  });
});
