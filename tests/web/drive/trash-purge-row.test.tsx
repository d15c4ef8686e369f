import { screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { trLines } from '../../../server/modules/localizations/lines/tr';
import { DRIVE_VIEWS, listingKey } from '../../../src/features/drive/lib/views';
import { driveDatabase } from '../../../src/offline/db';
import { writeListingPage } from '../../../src/offline/listing-cache';
import { makeBootstrap, makeUser } from '../fixtures';
import { makeEntry } from './entries';
import { loadRoutes, renderApp } from '../render-app';

// The Trash view's rows say when each entry goes for good (its purge_at, fixed when it was trashed).

const DAY = 24 * 60 * 60 * 1000;

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

// The first render of the lazy routes is the hook's, not the first test's wait.
beforeAll(() => loadRoutes('/drive/trash'), 60_000);

async function trashRows(userId: number, language: 'en' | 'tr') {
  // The server never answers: the rows are painted from the device's copy of the listing.
  vi.stubGlobal('fetch', () => new Promise<Response>(() => undefined));
  vi.spyOn(Element.prototype, 'clientHeight', 'get').mockReturnValue(600);
  vi.spyOn(Element.prototype, 'clientWidth', 'get').mockReturnValue(800);
  const user = makeUser({ id: userId });
  const db = driveDatabase(user.id, '0');
  const now = Date.now();
  const deletedAt = new Date(now).toISOString();
  await writeListingPage(
    db,
    listingKey({ view: 'trash', folderId: '0', sort: DRIVE_VIEWS.trash.sort }),
    {
      entries: [
        makeEntry({ id: 'p1', name: 'Old plans', deleted_at: deletedAt, purge_at: new Date(now + 12 * DAY + 60_000).toISOString() }),
        makeEntry({ id: 'p2', name: 'Going soon', deleted_at: deletedAt, purge_at: new Date(now + 3 * 60 * 60 * 1000).toISOString() }),
      ],
      folder: null,
      nextCursor: null,
      total: 2,
    },
    { replace: true },
  );
  const lines = language === 'tr' ? trLines : {};
  renderApp('/drive/trash', makeBootstrap({ user, i18n: { language, lines } }));
  // The whole shell renders and the rows come from IndexedDB: 1.5–1.8 s measured with the machine's other
  // test runs going, past findBy's 1 s; nothing here is a race, only work.
  const listbox = await screen.findByRole('listbox', {}, { timeout: 5_000 });
  await within(listbox).findAllByRole('option');
  const purge = (name: string) => within(within(listbox).getByRole('option', { name })).getByTestId('entry-purge').textContent;
  const answer = { later: purge('Old plans'), soon: purge('Going soon') };
  await db.delete();
  return answer;
}

describe('trash rows', () => {
  it('say "deleted forever in N days" from purge_at, in English', async () => {
    expect(await trashRows(5151, 'en')).toEqual({ later: 'Deleted forever in 13 days', soon: 'Deleted forever within a day' });
  });

  it('and in Turkish', async () => {
    expect(await trashRows(5152, 'tr')).toEqual({ later: '13 gün içinde kalıcı olarak silinecek', soon: 'Bir gün içinde kalıcı olarak silinecek' });
  });
});
