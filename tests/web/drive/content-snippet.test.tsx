import { screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { trLines } from '../../../server/modules/localizations/lines/tr';
import type { ListedFileEntry } from '../../../src/features/drive/api/types';
import { DRIVE_VIEWS, listingKey, listingQuery } from '../../../src/features/drive/lib/views';
import { driveDatabase } from '../../../src/offline/db';
import { writeListingPage } from '../../../src/offline/listing-cache';
import { makeBootstrap, makeUser } from '../fixtures';
import { makeEntry } from './entries';
import { loadRoutes, renderApp } from '../render-app';

// Content search (issue 35): a content match shows where the words are, marked from plain segments.

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

beforeAll(() => loadRoutes('/drive/search'), 60_000);

const search = { query: 'retention', content: true };

async function searchRows(userId: number, language: 'en' | 'tr') {
  // The server never answers: the rows are painted from the device's copy of the listing.
  vi.stubGlobal('fetch', () => new Promise<Response>(() => undefined));
  vi.spyOn(Element.prototype, 'clientHeight', 'get').mockReturnValue(600);
  vi.spyOn(Element.prototype, 'clientWidth', 'get').mockReturnValue(800);
  const user = makeUser({ id: userId });
  const db = driveDatabase(user.id, '0');
  const matched: ListedFileEntry = {
    ...makeEntry({ id: 'c1', name: 'rules.docx', type: 'word' }),
    content_match: {
      segments: [
        { text: '… our ', match: false },
        { text: 'Retention', match: true },
        { text: ' policy <b>keeps</b> mail', match: false },
      ],
    },
  };
  const byName: ListedFileEntry = { ...makeEntry({ id: 'c2', name: 'retention.png', type: 'image' }), content_match: null };
  await writeListingPage(
    db,
    listingKey({ view: 'search', folderId: '0', sort: DRIVE_VIEWS.search.sort, search }),
    { entries: [matched, byName], folder: null, nextCursor: null, total: 2 },
    { replace: true },
  );
  renderApp('/drive/search?query=retention', makeBootstrap({ user, i18n: { language, lines: language === 'tr' ? trLines : {} } }));
  const listbox = await screen.findByRole('listbox', {}, { timeout: 5_000 });
  await within(listbox).findAllByRole('option');
  const rows = { matched: within(listbox).getByRole('option', { name: 'rules.docx' }), byName: within(listbox).getByRole('option', { name: 'retention.png' }) };
  const answer = {
    snippet: within(rows.matched).getByTestId('content-snippet'),
    marks: [...rows.matched.querySelectorAll('mark')].map((m) => m.textContent),
    injected: rows.matched.querySelector('b'),
    nameOnlySnippet: within(rows.byName).queryByTestId('content-snippet'),
    toggle: screen.getByRole('checkbox'),
  };
  return { ...answer, cleanup: () => db.delete() };
}

describe('content search results', () => {
  it('asks the server to search inside files, and keys the listing by it', () => {
    const params = { view: 'search' as const, folderId: '0', sort: DRIVE_VIEWS.search.sort };
    expect(listingQuery({ ...params, search }, null, 50)).toMatchObject({ query: 'retention', content: 'true' });
    expect(listingQuery({ ...params, search: { query: 'retention', content: false } }, null, 50)).not.toHaveProperty('content');
    expect(listingKey({ ...params, search })).not.toBe(listingKey({ ...params, search: { query: 'retention', content: false } }));
  });

  it('shows the snippet under a content match with the words in <mark>, text only, in English', async () => {
    const found = await searchRows(7601, 'en');
    expect(found.marks).toEqual(['Retention']);
    expect(found.snippet.textContent).toBe('Found in the file: … our Retention policy <b>keeps</b> mail');
    expect(found.injected).toBeNull();
    expect(found.nameOnlySnippet).toBeNull();
    expect((found.toggle as HTMLInputElement).checked).toBe(true);
    expect(found.toggle.closest('label')!.textContent).toBe('Search inside files');
    await found.cleanup();
  });

  it('and in Turkish', async () => {
    const found = await searchRows(7602, 'tr');
    expect(found.snippet.textContent).toContain('Dosyanın içinde bulunan:');
    expect(found.toggle.closest('label')!.textContent).toBe('Dosyaların içinde ara');
    await found.cleanup();
  });

  it('unchecks "Search inside files" at the click, before the router\'s transition to the new address has rendered', async () => {
    const found = await searchRows(7603, 'en');
    const toggle = found.toggle as HTMLInputElement;
    const environment = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
    const before = environment.IS_REACT_ACT_ENVIRONMENT;
    // Outside act(), as in a browser: React applies the click's own update at once and renders the router's
    // navigation later, in a transition (act() would flush both before the check).
    environment.IS_REACT_ACT_ENVIRONMENT = false;
    try {
      toggle.click();
      expect(toggle.checked).toBe(false);
      // And it stays unchecked once the transition to ?content=0 has rendered.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect((screen.getByRole('checkbox') as HTMLInputElement).checked).toBe(false);
    } finally {
      environment.IS_REACT_ACT_ENVIRONMENT = before;
    }
    await found.cleanup();
  });
});
