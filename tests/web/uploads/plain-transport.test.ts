import { describe, expect, it } from 'vitest';
import { plainTransport } from '../../../src/offline/queues/uploads/plain-transport';
import { makeEntry, makeItem } from './helpers';

describe('plain multipart upload', () => {
  it('posts the fields before the file, with the XSRF header, credentials and workspace', async () => {
    let seen: { url: string; init: RequestInit } | null = null;
    const fetchFn: typeof fetch = (input, init = {}) => {
      seen = { url: String(input), init };
      return Promise.resolve(Response.json({ fileEntry: makeEntry('a.txt') }));
    };
    const progress: number[] = [];
    const item = makeItem({ name: 'a.txt', folderHash: 'f1', relativePath: 'docs/a.txt', workspaceId: 4, size: 3 });
    const handle = plainTransport({ fetch: fetchFn, origin: 'http://drive.test', getXsrfToken: () => Promise.resolve('tok') })(item, {
      blob: new Blob(['abc']),
      onProgress: (b) => progress.push(b),
      onUploadUrl: () => {},
      onS3Upload: () => {},
    });
    await expect(handle.done).resolves.toMatchObject({ name: 'a.txt' });
    const request = seen as unknown as { url: string; init: RequestInit };
    expect(request.url).toBe('http://drive.test/api/v1/file-entries?workspaceId=4');
    expect(request.init.credentials).toBe('include');
    expect((request.init.headers as Record<string, string>)['X-XSRF-TOKEN']).toBe('tok');
    const form = request.init.body as FormData;
    expect([...form.keys()]).toEqual(['parentId', 'relativePath', 'onConflict', 'file']);
    expect(form.get('parentId')).toBe('f1');
    expect((form.get('file') as File).name).toBe('a.txt');
    expect(progress).toEqual([3]);
  });

  it('reports the restriction message of a 422 and the message of a 413', async () => {
    const answer =
      (body: unknown, status: number): typeof fetch =>
      () =>
        Promise.resolve(Response.json(body, { status }));
    const run = (fetchFn: typeof fetch) =>
      plainTransport({ fetch: fetchFn, origin: 'http://drive.test', getXsrfToken: () => Promise.resolve(null) })(makeItem(), {
        blob: new Blob(['x']),
        onProgress: () => {},
        onUploadUrl: () => {},
        onS3Upload: () => {},
      }).done;
    await expect(run(answer({ message: 'Invalid', errors: { file: ['This file type is not allowed'] } }, 422))).rejects.toMatchObject({
      kind: 'http',
      userMessage: 'This file type is not allowed',
    });
    await expect(run(answer({ message: 'You have exhausted your allowed space of 1 GB.' }, 413))).rejects.toMatchObject({
      status: 413,
      userMessage: 'You have exhausted your allowed space of 1 GB.',
    });
    await expect(run(() => Promise.reject(new TypeError('Failed to fetch')))).rejects.toMatchObject({ kind: 'network' });
  });
});
