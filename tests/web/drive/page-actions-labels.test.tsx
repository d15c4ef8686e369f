import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DRIVE_VIEWS, listingKey } from '../../../src/features/drive/lib/views';
import { driveDatabase } from '../../../src/offline/db';
import { writeListingPage } from '../../../src/offline/listing-cache';
import { makeBootstrap, makeUser } from '../fixtures';
import { renderApp } from '../render-app';

// Issue 32.8: on a phone the drive's toolbar was icons alone, and New folder and Upload folder shared
// one icon. Each button now shows its name at every width, and each has its own icon.

beforeAll(async () => {
  await Promise.all([import('../../../src/app/layouts/AppLayout'), import('../../../src/features/drive/DriveRoutes')]);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("the drive's page actions", () => {
  it('name every button in visible text (no width hides it) and give each its own icon', async () => {
    vi.stubGlobal('fetch', () => new Promise<Response>(() => undefined));
    const user = makeUser({ id: 7401 });
    const db = driveDatabase(user.id, '0');
    await writeListingPage(
      db,
      listingKey({ view: 'folder', folderId: '0', sort: DRIVE_VIEWS.folder.sort }),
      { entries: [], folder: { hash: '0', name: '', permissions: ['files.view', 'files.create', 'files.update'] }, nextCursor: null, total: 0 },
      { replace: true },
    );
    renderApp('/drive', makeBootstrap({ user }));
    const actions = await screen.findByTestId('page-actions', {}, { timeout: 10_000 });
    // The folder's permissions arrive with its listing (from the device here); then all four show.
    await waitFor(() => expect(actions.querySelectorAll('button')).toHaveLength(4));
    const buttons = [...actions.querySelectorAll('button')];
    expect(buttons.map((b) => b.getAttribute('aria-label'))).toEqual(['New folder', 'New document', 'Upload', 'Upload folder']);
    for (const button of buttons) {
      const label = button.querySelector('span')!;
      expect(label.textContent).toBe(button.getAttribute('aria-label'));
      // Shown at a phone's width too: no class hides it below a breakpoint.
      expect(label.className).not.toMatch(/(^|\s)hidden(\s|$)/);
    }
    const icons = buttons.map((b) => b.querySelector('svg path')!.getAttribute('d'));
    expect(new Set(icons).size).toBe(buttons.length);
    await db.delete();
  }, 20_000);
});
