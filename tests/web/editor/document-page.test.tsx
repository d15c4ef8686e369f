import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveDraft } from '../../../src/features/editor/drafts';
import { userDatabase } from '../../../src/offline/user-db';
import { makeBootstrap, makeUser } from '../fixtures';
import { renderApp } from '../render-app';

afterEach(() => vi.unstubAllGlobals());

const paragraph = (text: string) => [{ kind: 'paragraph' as const, runs: [{ type: 'text' as const, text, fontAttributes: {} }] }];

describe('the document screen', () => {
  it('paints the draft kept on the device while the server has not answered, with the §9 toolbar', async () => {
    vi.stubGlobal('fetch', () => new Promise<Response>(() => undefined));
    const user = makeUser({ id: 5151 });
    await userDatabase(user.id).documents.put({ entryId: 'd1', name: 'Plan.docx', content: paragraph('old server copy'), version: 'v1', fetchedAt: 1 });
    await saveDraft(String(user.id), 'd1', paragraph('my unsaved draft'), 'v1');

    renderApp('/doc/d1', makeBootstrap({ user }));
    // The route loads on demand (Quill and its styles): the first render may take a moment.
    expect(await screen.findByText('my unsaved draft', {}, { timeout: 15_000 })).toBeTruthy();
    expect(screen.queryByText('old server copy')).toBeNull();
    // Quill shows the text the moment it is set; the name is React state, committed in a later render.
    expect(((await screen.findByTestId('document-name')) as HTMLInputElement).value).toBe('Plan');
    const toolbar = document.querySelector('.ql-toolbar')!;
    const buttons = [...toolbar.querySelectorAll('button')].map((b) => `${b.className.replace('ql-', '')}${b.value ? `:${b.value}` : ''}`);
    expect(buttons).toEqual([
      'header:1',
      'header:2',
      'bold',
      'italic',
      'underline',
      'link',
      'blockquote',
      'code-block',
      'image',
      'list:ordered',
      'list:bullet',
    ]);
    const sizes = [...toolbar.querySelectorAll('select.ql-size option')].map((o) => (o as HTMLOptionElement).value);
    expect(sizes).toEqual(['10px', '12px', '14px', '16px', '18px', '20px', '24px', '26px', '30px']);
    await userDatabase(user.id).delete();
  }, 20_000);

  it('shows a loading indicator, then the server’s reason when the file cannot be opened', async () => {
    // Spec §8: the load failure is logged (and, with nothing on the device, explained on the screen).
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    // Reads wait until the test answers them (the loading indicator shows meanwhile); the shell's other calls wait forever.
    const damaged = () => Response.json({ message: 'This document could not be read: it is damaged or not a Word document.' }, { status: 422 });
    const reads: ((response: Response) => void)[] = [];
    let answering = false;
    vi.stubGlobal(
      'fetch',
      (input: RequestInfo | URL) =>
        new Promise<Response>((resolve) => {
          const url = input instanceof Request ? input.url : String(input);
          if (!url.includes('file-entries/read')) return;
          if (answering) resolve(damaged());
          else reads.push(resolve);
        }),
    );
    renderApp('/doc/broken', makeBootstrap({ user: makeUser({ id: 5252 }) }));
    await screen.findByTestId('document-editor', {}, { timeout: 15_000 });
    expect(screen.getByRole('progressbar', { name: 'Loading...' })).toBeTruthy();
    answering = true;
    for (const answer of reads) answer(damaged());
    expect((await screen.findByTestId('document-error', {}, { timeout: 10_000 })).textContent).toBe(
      'This document could not be read: it is damaged or not a Word document.',
    );
    expect(logged).toHaveBeenCalled();
    logged.mockRestore();
  }, 20_000);
});
