import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { trLines } from '../../../server/modules/localizations/lines/tr';
import { createQueryClient } from '../../../src/api/query-client';
import { queryKeys } from '../../../src/api/query-keys';
import { UploadPanel } from '../../../src/features/uploads';
import { uploadQueue } from '../../../src/features/uploads/queue-client';
import { newUploadItem } from '../../../src/offline/queues/uploads/new-item';
import { plainTransport } from '../../../src/offline/queues/uploads/plain-transport';
import { UploadFailure } from '../../../src/offline/queues/uploads/transport';
import { uploadsDatabase } from '../../../src/offline/queues/uploads/db';
import type { UploadItem, UploadSettings } from '../../../src/offline/queues/uploads/types';
import { makeBootstrap, makeUser } from '../fixtures';
import { flush, makeEntry, makeItem, setup } from './helpers';

// A name already taken in the folder (issue 34): a new upload asks the
// server first (onConflict "ask"), a refusal for the name stops the item with
// Replace and Keep both beside it, and the choice sends it again with that answer.

const TAKEN = 'An item named "a.txt" already exists in this folder.';
const settings: UploadSettings = { maxSize: null, chunkSize: 5_000_000, allowedExtensions: [], blockedExtensions: [], disableTus: false, directS3: false };

afterEach(() => vi.restoreAllMocks());

function sendPlain(item: UploadItem, answer: (form: FormData) => Response) {
  const fetchFn: typeof fetch = (_input, init = {}) => Promise.resolve(answer(init.body as FormData));
  return plainTransport({ fetch: fetchFn, origin: 'http://drive.test', getXsrfToken: () => Promise.resolve(null) })(item, {
    blob: new Blob(['abc']),
    onProgress: () => {},
    onUploadUrl: () => {},
    onS3Upload: () => {},
  }).done;
}

describe('an upload whose name is taken', () => {
  it("is queued asking first, and tells the 409 of a taken name from the server's other 409s", async () => {
    const { item } = newUploadItem(
      { name: 'a.txt', size: 3, type: 'text/plain', lastModified: 0 },
      null,
      { folderHash: 'f1', workspaceId: null },
      {
        id: 'n1',
        userId: '1',
        settings,
        formatSize: String,
        now: 1,
        index: 0,
      },
    );
    expect(item.onConflict).toBe('ask');
    let sent: string | null = null;
    const taken = sendPlain(item, (form) => {
      sent = form.get('onConflict') as string;
      return Response.json({ message: TAKEN, errors: { name: [TAKEN] } }, { status: 409 });
    });
    await expect(taken).rejects.toMatchObject({ status: 409, nameTaken: true, userMessage: TAKEN });
    expect(sent).toBe('ask');
    await expect(sendPlain(item, () => Response.json({ message: 'This upload is being finished.' }, { status: 409 }))).rejects.toMatchObject({
      nameTaken: false,
    });
    // Items queued before the queue asked keep both, as they did.
    let legacy: string | null = null;
    await sendPlain(makeItem({ onConflict: undefined }), (form) => {
      legacy = form.get('onConflict') as string;
      return Response.json({ fileEntry: makeEntry('a (1).txt') });
    });
    expect(legacy).toBe('rename');
  });

  it('stops with the choice even offline, and Replace sends it again, as a new upload, with that answer', async () => {
    const { engine, plain, tus, add, db, network } = await setup();
    await add(
      makeItem({ id: 'r', name: 'a.txt', onConflict: 'ask', createdAt: 1 }),
      makeItem({ id: 't', name: 'b.bin', method: 'tus', onConflict: 'ask', createdAt: 2 }),
    );
    const run = engine.run();
    await flush();
    network.online = false;
    plain.calls[0]!.reject(new UploadFailure('http', 409, TAKEN, true));
    await run;
    network.online = true;
    const again = engine.run();
    await flush();
    tus.calls[0]!.context.onUploadUrl('http://drive.test/api/v1/tus/upload/abc');
    await flush();
    tus.calls[0]!.reject(new UploadFailure('http', 409, TAKEN, true));
    await again;
    expect(await db.items.get('r')).toMatchObject({ status: 'failed', nameTaken: true, errorMessage: TAKEN });
    expect(await db.items.get('t')).toMatchObject({ status: 'failed', nameTaken: true, tusUrl: 'http://drive.test/api/v1/tus/upload/abc' });

    // Retry would only ask the same question again; the answer is what moves it.
    await engine.apply({ type: 'uploads:resolve', id: 'r', choice: 'replace' });
    await flush();
    expect(plain.calls).toHaveLength(2);
    expect(plain.calls[1]!.item).toMatchObject({ id: 'r', onConflict: 'replace', nameTaken: false });
    plain.calls[1]!.resolve(makeEntry('a.txt'));
    await engine.apply({ type: 'uploads:resolve', id: 't', choice: 'rename' });
    await flush();
    expect(tus.calls[1]!.item).toMatchObject({ onConflict: 'rename', tusUrl: null });
    tus.calls[1]!.resolve(makeEntry('b (1).bin'));
    await flush();
    expect(await db.items.get('r')).toMatchObject({ status: 'completed', onConflict: 'replace' });
    expect(await db.items.get('t')).toMatchObject({ status: 'completed', onConflict: 'rename' });
    // An item that was not refused for its name is not moved by an answer.
    await engine.apply({ type: 'uploads:resolve', id: 'r', choice: 'rename' });
    expect((await db.items.get('r'))?.onConflict).toBe('replace');
  });

  it("shows Replace and Keep both instead of Retry (in the person's language), and sends the choice", async () => {
    const resolve = vi.spyOn(uploadQueue, 'resolve').mockResolvedValue(undefined);
    await uploadsDatabase().items.bulkPut([
      makeItem({ id: 'asked', userId: '77', name: 'a.txt', status: 'failed', nameTaken: true, errorMessage: TAKEN, createdAt: 1 }),
      makeItem({ id: 'plain-fail', userId: '77', name: 'c.txt', status: 'failed', errorMessage: 'Over quota', createdAt: 2 }),
    ]);
    const client = createQueryClient();
    client.setQueryData(queryKeys.bootstrap, makeBootstrap({ user: makeUser({ id: 77 }), i18n: { language: 'tr', lines: trLines } }));
    render(
      <QueryClientProvider client={client}>
        <UploadPanel />
      </QueryClientProvider>,
    );
    const rows = await screen.findAllByRole('listitem');
    const asked = rows.find((row) => row.getAttribute('aria-label') === 'a.txt')!;
    expect(within(asked).queryByRole('button', { name: trLines['Retry upload'] })).toBeNull();
    expect(within(asked).getByRole('group', { name: 'Bu adla bir dosya zaten burada' })).toBeDefined();
    fireEvent.click(within(asked).getByRole('button', { name: 'Değiştir' }));
    expect(resolve).toHaveBeenCalledWith('asked', 'replace');
    fireEvent.click(within(asked).getByRole('button', { name: 'İkisini de sakla' }));
    expect(resolve).toHaveBeenCalledWith('asked', 'rename');
    const other = rows.find((row) => row.getAttribute('aria-label') === 'c.txt')!;
    expect(within(other).queryByRole('button', { name: 'Değiştir' })).toBeNull();
    expect(within(other).getByRole('button', { name: trLines['Retry upload'] })).toBeDefined();
  });
});
