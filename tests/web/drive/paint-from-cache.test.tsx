import { screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DRIVE_VIEWS, listingKey } from '../../../src/features/drive/lib/views';
import { driveDatabase } from '../../../src/offline/db';
import { writeListingPage } from '../../../src/offline/listing-cache';
import { makeBootstrap, makeUser } from '../fixtures';
import { makeEntry } from './entries';
import { renderApp } from '../render-app';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

// The routes' code loads lazily, and its first import (transformed cold) can outlast findBy's wait on a busy
// machine: load it once beforehand, so the test waits only for what it is about, the paint from the device.
beforeAll(async () => {
  await Promise.all([import('../../../src/app/layouts/AppLayout'), import('../../../src/features/drive/DriveRoutes')]);
});

describe('the drive paints from IndexedDB first', () => {
  it('shows a folder stored on the device while the server has not answered', async () => {
    // The server never answers in this test.
    vi.stubGlobal('fetch', () => new Promise<Response>(() => undefined));
    // jsdom lays nothing out, and the listing only draws the rows that fit its box: give every box a size.
    vi.spyOn(Element.prototype, 'clientHeight', 'get').mockReturnValue(600);
    vi.spyOn(Element.prototype, 'clientWidth', 'get').mockReturnValue(800);
    const user = makeUser({ id: 4242 });
    const db = driveDatabase(user.id, '0');
    const key = listingKey({ view: 'folder', folderId: '0', sort: DRIVE_VIEWS.folder.sort });
    const folder = { hash: '0', name: '', permissions: [] };
    await writeListingPage(
      db,
      key,
      {
        entries: [
          makeEntry({ id: 'k1', name: 'Kept offline' }),
          makeEntry({ id: 'k2', name: 'Also kept', type: 'file', mime: 'text/plain', extension: 'txt' }),
        ],
        folder,
        nextCursor: null,
        total: 2,
      },
      { replace: true },
    );
    // Another listing stored on the same device: its row must not leak into this one.
    const trash = listingKey({ view: 'trash', folderId: '0', sort: DRIVE_VIEWS.trash.sort });
    await writeListingPage(
      db,
      trash,
      { entries: [makeEntry({ id: 't1', name: 'In the trash' })], folder: null, nextCursor: null, total: 1 },
      { replace: true },
    );

    renderApp('/drive', makeBootstrap({ user }));
    expect(await screen.findByRole('heading', { name: 'Drive' })).toBeTruthy();
    const listbox = await screen.findByRole('listbox', { name: 'Drive' });
    const rows = await within(listbox).findAllByRole('option');
    expect(rows.map((row) => row.getAttribute('aria-label') ?? row.textContent)).toEqual(['Kept offline', 'Also kept']);
    await db.delete();
  });
});
