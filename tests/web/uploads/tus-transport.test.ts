import { afterEach, describe, expect, it, vi } from 'vitest';
import { RETRY_DELAYS } from '../../../src/offline/queues/uploads/rules';
import { tusTransport } from '../../../src/offline/queues/uploads/tus-transport';
import { uploadKeyOf } from '../../../src/offline/queues/uploads/file-entry';
import { fakeTusServer } from './fake-tus-server';
import { flush, makeItem } from './helpers';

const KB = 1024;
const deps = (fetchFn: typeof fetch) => ({ fetch: fetchFn, origin: 'http://drive.test', getXsrfToken: () => Promise.resolve('xsrf-1') });

describe('tus upload through the fetch HttpStack', () => {
  afterEach(() => vi.useRealTimers());

  it('creates the upload, sends chunks at confirmed offsets with the tus and XSRF headers, then creates the entry', async () => {
    const server = fakeTusServer();
    const item = makeItem({ method: 'tus', size: 10 * KB, chunkSize: 4 * KB, name: 'big.bin', folderHash: 'abc', relativePath: 'dir/big.bin', workspaceId: 7 });
    const progress: number[] = [];
    const urls: string[] = [];
    const handle = tusTransport(deps(server.fetch))(item, {
      blob: new Blob([new Uint8Array(10 * KB)]),
      onProgress: (bytes) => progress.push(bytes),
      onUploadUrl: (url) => urls.push(url),
      onS3Upload: () => undefined,
    });
    const entry = await handle.done;

    expect(entry.id).toBe('e-key1');
    const [create, ...rest] = server.seen;
    expect(create?.method).toBe('POST');
    // Creating checks the destination and reserves the space in the item's workspace (base client rules).
    expect(create?.url).toBe('/api/v1/tus/upload?workspaceId=7');
    expect(create?.headers['upload-length']).toBe(String(10 * KB));
    expect(create?.headers['tus-resumable']).toBe('1.0.0');
    const metadata = Object.fromEntries(
      (create?.headers['upload-metadata'] ?? '').split(',').map((pair) => {
        const [key = '', value = ''] = pair.split(' ');
        return [key, atob(value)];
      }),
    );
    expect(metadata).toEqual({ name: 'big.bin', parentId: 'abc', mime: 'text/plain', relativePath: 'dir/big.bin', onConflict: 'rename' });

    const patches = rest.filter((r) => r.method === 'PATCH');
    expect(patches.map((p) => [p.headers['upload-offset'], p.bodySize])).toEqual([
      ['0', 4 * KB],
      [String(4 * KB), 4 * KB],
      [String(8 * KB), 2 * KB],
    ]);
    for (const request of server.seen) {
      expect(request.headers['x-xsrf-token']).toBe('xsrf-1');
      expect(request.credentials).toBe('include');
    }
    expect(patches[0]?.headers['content-type']).toBe('application/offset+octet-stream');
    // Progress is what the server confirmed, chunk by chunk.
    expect(progress.slice(0, 3)).toEqual([4 * KB, 8 * KB, 10 * KB]);
    expect(urls[0]).toBe('http://drive.test/api/v1/tus/upload/key1');
    const entries = server.seen.at(-1);
    expect(entries?.url).toBe('/api/v1/tus/entries?workspaceId=7');
  });

  it('resumes a stored upload URL from the Upload-Offset HEAD reports', async () => {
    const server = fakeTusServer();
    server.uploads.set('key9', { length: 10 * KB, offset: 6 * KB, metadata: '' });
    const item = makeItem({ method: 'tus', size: 10 * KB, chunkSize: 4 * KB, tusUrl: 'http://drive.test/api/v1/tus/upload/key9' });
    const handle = tusTransport(deps(server.fetch))(item, {
      blob: new Blob([new Uint8Array(10 * KB)]),
      onProgress: () => {},
      onUploadUrl: () => {},
      onS3Upload: () => {},
    });
    await handle.done;
    expect(server.seen.map((r) => r.method)).toEqual(['HEAD', 'PATCH', 'POST']);
    expect(server.seen[1]?.headers['upload-offset']).toBe(String(6 * KB));
    expect(server.seen[1]?.bodySize).toBe(4 * KB);
  });

  it('retries failed requests after 0, 3, 5, 10 and 20 s', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const server = fakeTusServer({ failPatches: 2 });
    const item = makeItem({ method: 'tus', size: 4 * KB, chunkSize: 4 * KB });
    const handle = tusTransport(deps(server.fetch))(item, {
      blob: new Blob([new Uint8Array(4 * KB)]),
      onProgress: () => {},
      onUploadUrl: () => {},
      onS3Upload: () => {},
    });
    const patches = () => server.seen.filter((r) => r.method === 'PATCH').length;
    await flush();
    await vi.advanceTimersByTimeAsync(0);
    await flush();
    expect(patches()).toBe(2);
    await vi.advanceTimersByTimeAsync(2_900);
    await flush();
    expect(patches()).toBe(2);
    await vi.advanceTimersByTimeAsync(100);
    await flush();
    expect(patches()).toBe(3);
    await expect(handle.done).resolves.toMatchObject({ id: 'e-key1' });
    expect(RETRY_DELAYS).toEqual([0, 3000, 5000, 10000, 20000]);
  });

  it("turns the failing tus response's JSON into the item's message", async () => {
    const fetchFn: typeof fetch = () =>
      Promise.resolve(Response.json({ message: 'Over quota', errors: { file: ['big.bin exceeds maximum allowed size of 1 MB'] } }, { status: 422 }));
    const item = makeItem({ method: 'tus', size: 4 * KB });
    const handle = tusTransport(deps(fetchFn))(item, {
      blob: new Blob([new Uint8Array(4 * KB)]),
      onProgress: () => {},
      onUploadUrl: () => {},
      onS3Upload: () => {},
    });
    await expect(handle.done).rejects.toMatchObject({ kind: 'http', status: 422, userMessage: 'big.bin exceeds maximum allowed size of 1 MB' });
  });

  it('takes the upload key from the last path segment of the upload URL', () => {
    expect(uploadKeyOf('http://drive.test/api/v1/tus/upload/abc123')).toBe('abc123');
    expect(uploadKeyOf('/api/v1/tus/upload/abc123/')).toBe('abc123');
  });
});
