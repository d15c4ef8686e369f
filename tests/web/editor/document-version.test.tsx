import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { userDatabase } from '../../../src/offline/user-db';
import { makeBootstrap, makeUser } from '../fixtures';
import { renderApp } from '../render-app';

const paragraph = (text: string) => [{ kind: 'paragraph' as const, runs: [{ type: 'text' as const, text, fontAttributes: {} }] }];
const fileEntry = { id: 'd1', hash: 'd1', name: 'Plan.docx', parent_id: null, permissions: ['files.view', 'files.update', 'files.download'] };

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/**
 * A server whose document is "Current text" and whose version 7 is "Old text"; restoring version 7
 * makes it the current text. Records the calls it answered.
 */
function fakeServer() {
  const calls: { url: string; body: unknown }[] = [];
  let current = 'Current text';
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input);
    const method = input instanceof Request ? input.method : (init?.method ?? 'GET');
    const raw = input instanceof Request ? await input.clone().text() : typeof init?.body === 'string' ? init.body : '';
    const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : null;
    calls.push({ url, body });
    if (url.endsWith('/file-entries/read') && method === 'POST') {
      const old = body?.versionId === 7;
      return Response.json({
        data: paragraph(old ? 'Old text' : current),
        version: current === 'Current text' ? 'v2' : 'v3',
        fileEntry,
        ...(old ? { shownVersion: { id: 7, created_at: '2026-11-20T10:00:00.000Z' } } : {}),
      });
    }
    if (url.endsWith('/file-entries/d1/versions/7/restore') && method === 'POST') {
      current = 'Old text';
      return Response.json({ fileEntry });
    }
    // The shell's other calls: never answered.
    return new Promise<Response>(() => undefined);
  });
  return calls;
}

describe('an earlier version of a document in the editor', () => {
  it('shows the version read-only under a banner, with Restore bringing it back as the current text', async () => {
    const calls = fakeServer();
    const user = makeUser({ id: 6161 });
    // The device's copy is the current text: a version view must not paint it.
    await userDatabase(user.id).documents.put({ entryId: 'd1', name: 'Plan.docx', content: paragraph('Current text'), version: 'v2', fetchedAt: 1 });
    const router = renderApp('/doc/d1?version=7', makeBootstrap({ user }));

    expect(await screen.findByText('Old text', {}, { timeout: 15_000 })).toBeTruthy();
    expect(screen.queryByText('Current text')).toBeNull();
    expect(calls.find((call) => call.url.endsWith('/file-entries/read'))?.body).toEqual({ id: 'd1', versionId: 7 });
    // Read-only: the editor does not take input, nothing offers to save or rename it.
    expect(document.querySelector('.ql-editor')?.getAttribute('contenteditable')).toBe('false');
    expect(screen.queryByRole('button', { name: 'Save now' })).toBeNull();
    // Quill shows the text the moment it is set; the name is React state, committed in a later render.
    expect(((await screen.findByTestId('document-name')) as HTMLInputElement).readOnly).toBe(true);
    const banner = await screen.findByRole('region', { name: 'Earlier version' });
    expect(banner.textContent).toMatch(/You are viewing the version of .*2026.*\. It is read-only\./);
    expect(within(banner).getByRole('link', { name: 'Open the current version' }).getAttribute('href')).toBe('/doc/d1');

    fireEvent.click(within(banner).getByRole('button', { name: 'Restore this version' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(calls.some((call) => call.url.endsWith('/file-entries/d1/versions/7/restore'))).toBe(true);
    // The current document now: editable, without the banner, holding the restored text.
    await waitFor(() => expect(document.querySelector('.ql-editor')?.textContent).toBe('Old text'), { timeout: 10_000 });
    await waitFor(() => expect(document.querySelector('.ql-editor')?.getAttribute('contenteditable')).toBe('true'));
    expect(screen.queryByRole('region', { name: 'Earlier version' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Save now' })).toBeTruthy();
    cleanup();
    await userDatabase(user.id).delete();
  }, 30_000);

  it('refuses Restore offline, saying why', async () => {
    const calls = fakeServer();
    const user = makeUser({ id: 6262 });
    renderApp('/doc/d1?version=7', makeBootstrap({ user }));
    const banner = await screen.findByRole('region', { name: 'Earlier version' }, { timeout: 15_000 });
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    window.dispatchEvent(new Event('offline'));
    const button = await within(banner).findByRole('button', { name: 'Restore this version' });
    await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(true));
    expect(within(banner).getByText('Versions can be restored only while online.')).toBeTruthy();
    fireEvent.click(button);
    expect(calls.some((call) => call.url.includes('/restore'))).toBe(false);
    cleanup();
    await userDatabase(user.id).delete();
  }, 30_000);
});
