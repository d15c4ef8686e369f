import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { splitExtension } from '../../../src/features/editor/DocumentPage';
import { userDatabase } from '../../../src/offline/user-db';
import { makeEntry } from '../drive/entries';
import { makeBootstrap, makeUser } from '../fixtures';
import { renderApp } from '../render-app';

// Issue 32.8: the document screen renames its file from a one-line title box and downloads it,
// each offered only when the server's permissions on the file allow it.

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const paragraph = (text: string) => [{ kind: 'paragraph' as const, runs: [{ type: 'text' as const, text, fontAttributes: {} }] }];

/** The server: the read answers the document with these permissions, a rename answers the new name; the rest waits. */
function serve(permissions: string[]) {
  const calls: { method: string; url: string; body: string }[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(String(input), init);
    const body = request.method === 'GET' ? '' : await request.clone().text();
    calls.push({ method: request.method, url: request.url, body });
    const entry = makeEntry({ id: 'd1', hash: 'd1', name: 'Plan.docx', type: 'file', extension: 'docx', permissions });
    if (request.url.includes('file-entries/read')) return Response.json({ data: paragraph('the plan'), version: 'v1', fileEntry: entry });
    if (request.url.includes('file-entries/d1?_method=PUT')) {
      return Response.json({ fileEntry: { ...entry, name: (JSON.parse(body) as { name: string }).name } });
    }
    return new Promise<Response>(() => undefined);
  });
  return calls;
}

describe('the document title and download', () => {
  it('splits a name at its last dot, keeping names without an extension whole', () => {
    expect(splitExtension('Plan.docx')).toEqual({ base: 'Plan', extension: '.docx' });
    expect(splitExtension('v1.2 notes.docx')).toEqual({ base: 'v1.2 notes', extension: '.docx' });
    expect(splitExtension('.hidden')).toEqual({ base: '.hidden', extension: '' });
  });

  it('renames the file from the title box, keeping its extension; Escape puts the name back', async () => {
    const calls = serve(['files.view', 'files.update', 'files.download']);
    // The client sends a PUT as a POST with _method=PUT.
    const renames = () => calls.filter((c) => /file-entries\/d1\?_method=PUT/.test(c.url));
    const user = makeUser({ id: 6161 });
    renderApp('/doc/d1', makeBootstrap({ user }));
    expect(await screen.findByText('the plan', {}, { timeout: 15_000 })).toBeTruthy();
    const title = (await screen.findByRole('textbox', { name: 'Document name' })) as HTMLInputElement;
    await waitFor(() => expect(title.readOnly).toBe(false));
    expect(title.value).toBe('Plan');

    fireEvent.change(title, { target: { value: 'Ignored' } });
    fireEvent.keyDown(title, { key: 'Escape' });
    fireEvent.blur(title);
    await waitFor(() => expect((screen.getByRole('textbox', { name: 'Document name' }) as HTMLInputElement).value).toBe('Plan'));
    expect(renames()).toEqual([]);

    const box = screen.getByRole('textbox', { name: 'Document name' });
    fireEvent.change(box, { target: { value: '  Plan B ' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    fireEvent.blur(box);
    await waitFor(() => expect(renames()).toHaveLength(1));
    expect(JSON.parse(renames()[0]!.body)).toEqual({ name: 'Plan B.docx' });
    await waitFor(() => expect((screen.getByRole('textbox', { name: 'Document name' }) as HTMLInputElement).value).toBe('Plan B'));
    expect(screen.getByText('.docx')).toBeTruthy();

    // Download: nothing changed since the last save, so the file is fetched at once.
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.href);
    });
    fireEvent.click(screen.getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(clicked[0]).toContain('file-entries/download?hashes=d1');
    await userDatabase(user.id).delete();
  }, 25_000);

  it('offers neither renaming nor a download to a caller who may only view the file', async () => {
    serve(['files.view']);
    const user = makeUser({ id: 6262 });
    renderApp('/doc/d1', makeBootstrap({ user }));
    expect(await screen.findByText('the plan', {}, { timeout: 15_000 })).toBeTruthy();
    const title = (await screen.findByRole('textbox', { name: 'Document name' })) as HTMLInputElement;
    expect(title.readOnly).toBe(true);
    expect(screen.queryByRole('button', { name: 'Download' })).toBeNull();
    await userDatabase(user.id).delete();
  }, 25_000);
});
