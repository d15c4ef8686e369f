import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { keyCommandAction, mayDropOnFolder, mayDropOnTrash } from '../../../src/features/drive/lib/actions';
import { DRIVE_VIEWS, listingKey } from '../../../src/features/drive/lib/views';
import { driveDatabase } from '../../../src/offline/db';
import { writeListingPage } from '../../../src/offline/listing-cache';
import { makeBootstrap, makeUser } from '../fixtures';
import { makeEntry } from './entries';
import { renderApp } from '../render-app';

// Issue 32.4: the Delete and F2 keys and dragging to the sidebar's Trash or onto a folder follow the
// same permissions as the menus; an entry the menus would not offer to delete cannot be deleted otherwise.

const viewOnly = ['files.view', 'files.download'];

describe('keys and drops decide as the menus do', () => {
  it('maps Delete and F2 to the menu entry only when the menus offer it', () => {
    const mine = makeEntry({ type: 'image' });
    const theirs = makeEntry({ type: 'image', permissions: viewOnly });
    expect(keyCommandAction('folder', 'trash', [mine])).toBe('trash');
    expect(keyCommandAction('folder', 'trash', [theirs])).toBeNull();
    expect(keyCommandAction('folder', 'trash', [mine, theirs])).toBeNull();
    expect(keyCommandAction('trash', 'trash', [mine])).toBe('deleteForever');
    expect(keyCommandAction('trash', 'trash', [theirs])).toBeNull();
    expect(keyCommandAction('folder', 'rename', [mine])).toBe('rename');
    expect(keyCommandAction('folder', 'rename', [theirs])).toBeNull();
    expect(keyCommandAction('folder', 'rename', [mine, mine])).toBeNull();
    expect(keyCommandAction('trash', 'rename', [mine])).toBeNull();
    expect(mayDropOnTrash([mine])).toBe(true);
    expect(mayDropOnTrash([mine, theirs])).toBe(false);
    expect(mayDropOnFolder([mine])).toBe(true);
    expect(mayDropOnFolder([theirs])).toBe(false);
  });
});

beforeAll(async () => {
  await Promise.all([import('../../../src/app/layouts/AppLayout'), import('../../../src/features/drive/DriveRoutes')]);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** A drag's data as the browser would carry it between dragstart and drop. */
function fakeDataTransfer() {
  const data = new Map<string, string>();
  return {
    get types() {
      return [...data.keys()];
    },
    setData: (type: string, value: string) => void data.set(type, value),
    getData: (type: string) => data.get(type) ?? '',
    effectAllowed: 'all',
    dropEffect: 'none',
  };
}

async function renderDrive(userId: number) {
  // Listings come from the device; every call to the server is recorded and left unanswered.
  const calls: string[] = [];
  vi.stubGlobal('fetch', (input: RequestInfo | URL) => {
    calls.push(input instanceof Request ? input.url : String(input));
    return new Promise<Response>(() => undefined);
  });
  vi.spyOn(Element.prototype, 'clientHeight', 'get').mockReturnValue(600);
  vi.spyOn(Element.prototype, 'clientWidth', 'get').mockReturnValue(800);
  const user = makeUser({ id: userId });
  const db = driveDatabase(user.id, '0');
  await writeListingPage(
    db,
    listingKey({ view: 'folder', folderId: '0', sort: DRIVE_VIEWS.folder.sort }),
    {
      entries: [
        makeEntry({ id: 'mine', name: 'Mine', type: 'file', mime: 'text/plain', extension: 'txt' }),
        makeEntry({ id: 'theirs', name: 'Theirs', type: 'file', mime: 'text/plain', extension: 'txt', permissions: viewOnly }),
      ],
      folder: { hash: '0', name: '', permissions: [] },
      nextCursor: null,
      total: 2,
    },
    { replace: true },
  );
  renderApp('/drive', makeBootstrap({ user }));
  const listbox = await screen.findByRole('listbox', { name: 'Drive' }, { timeout: 10_000 });
  const row = async (name: string) =>
    (await within(listbox).findAllByRole('option')).find((o) => (o.getAttribute('aria-label') ?? o.textContent)?.includes(name))!;
  const deletes = () => calls.filter((url) => url.includes('file-entries/delete'));
  return { listbox, row, deletes, db };
}

describe('the listing', () => {
  it('sends no delete for the Delete key on an entry the caller may not delete, and one for an entry they may', async () => {
    const { listbox, row, deletes, db } = await renderDrive(7301);
    fireEvent.click(await row('Theirs'));
    fireEvent.keyDown(listbox, { key: 'Delete' });
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(deletes()).toEqual([]);
    expect(screen.queryByText('Moving to trash...')).toBeNull();

    fireEvent.click(await row('Mine'));
    fireEvent.keyDown(listbox, { key: 'Delete' });
    await vi.waitFor(() => expect(deletes()).toHaveLength(1));
    await db.delete();
  }, 20_000);

  it('takes no entry the caller may not delete on the sidebar Trash, and trashes one they may', async () => {
    const { row, deletes, db } = await renderDrive(7302);
    const trash = screen.getByRole('link', { name: 'Trash' });
    const dragOnto = async (name: string) => {
      const transfer = fakeDataTransfer();
      fireEvent.dragStart(await row(name), { dataTransfer: transfer });
      fireEvent.dragEnter(trash, { dataTransfer: transfer });
      // The target activates after 400 ms of hovering (spec §9).
      await act(() => new Promise((resolve) => setTimeout(resolve, 450)));
      fireEvent.drop(trash, { dataTransfer: transfer });
    };
    await dragOnto('Theirs');
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(trash.getAttribute('data-drop-active')).toBeNull();
    expect(deletes()).toEqual([]);

    await dragOnto('Mine');
    await vi.waitFor(() => expect(deletes()).toHaveLength(1));
    await db.delete();
  }, 20_000);
});
