import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { Upload } from '@tus/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HashingFileStore } from '../../../server/modules/uploads/hashing-store.js';
import { signedInUser } from '../support/drive-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTusUpload, patchTus } from './support.js';
import { servicesOf } from '../support/services-handle.js';

const bytes = (n: number) => {
  const content = Buffer.alloc(n);
  for (let i = 0; i < n; i += 1) content[i] = (i * 13) % 251;
  return content;
};
const sha = (content: Buffer) => createHash('sha256').update(content).digest('hex');

describe('tus: sha256 computed while the bytes arrive', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'drive-hashing-'));
  });
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));

  const storeAt = () => new HashingFileStore({ directory: dir, expirationPeriodInMilliseconds: 60_000 });
  const start = async (store: HashingFileStore, id: string, size: number) => store.create(new Upload({ id, size, offset: 0 }));

  it('carries the state from one PATCH to the next and gives the whole file’s digest and head', async () => {
    const store = storeAt();
    const content = bytes(200_000);
    await start(store, 'chunks', content.length);
    expect(await store.write(Readable.from([content.subarray(0, 70_000)]), 'chunks', 0)).toBe(70_000);
    expect(store.digest('chunks', content.length)).toBeNull();
    expect(await store.write(Readable.from([content.subarray(70_000)]), 'chunks', 70_000)).toBe(content.length);
    const digest = store.digest('chunks', content.length)!;
    expect(digest.sha256).toBe(sha(content));
    expect(digest.head.equals(content.subarray(0, digest.head.length))).toBe(true);
    expect(store.tracked).toBe(0);
  });

  it('after a restart (no state in memory) rebuilds from the bytes on disk and still ends right', async () => {
    const content = bytes(150_000);
    const before = storeAt();
    await start(before, 'restart', content.length);
    await before.write(Readable.from([content.subarray(0, 50_000)]), 'restart', 0);
    const after = storeAt();
    await after.write(Readable.from([content.subarray(50_000)]), 'restart', 50_000);
    expect(after.digest('restart', content.length)?.sha256).toBe(sha(content));
  });

  it('a PATCH that fails part way keeps no state that could be ahead of the disk', async () => {
    const store = storeAt();
    const content = bytes(120_000);
    await start(store, 'broken', content.length);
    const failing = new Readable({
      read() {
        this.push(content.subarray(0, 40_000));
        this.destroy(new Error('connection lost'));
      },
    });
    await expect(store.write(failing, 'broken', 0)).rejects.toBeDefined();
    expect(store.tracked).toBe(0);
    // tus resumes from what the disk holds, whatever that turned out to be.
    const onDisk = (await fs.stat(path.join(dir, 'broken'))).size;
    await store.write(Readable.from([content.subarray(onDisk)]), 'broken', onDisk);
    expect(store.digest('broken', content.length)?.sha256).toBe(sha(content));
  });
});

describe('tus: the finish uses the digest from arrival', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await servicesOf(t.app).settings.set({ 'uploads.max_size': 1024 * 1024, 'uploads.available_space': 10 * 1024 * 1024, 'uploads.blocked_extensions': [] });
  });
  afterAll(() => t.close());

  it('stores the right sha256 and type from the bytes hashed on arrival', async () => {
    const { client } = await signedInUser(t.app);
    const content = Buffer.concat([Buffer.from('%PDF-1.4\n'), bytes(90_000)]);
    const created = await createTusUpload(client, content.length, { name: 'paper.pdf' });
    const location = created.headers.location as string;
    await patchTus(client, location, 0, content.subarray(0, 30_000));
    await patchTus(client, location, 30_000, content.subarray(30_000));
    const store = servicesOf(t.app).uploads.tusFiles.store as HashingFileStore;
    expect(store.tracked).toBe(1);
    const done = await client.post('/api/v1/tus/entries', { uploadKey: location.split('/').pop() });
    expect(done.statusCode, done.body).toBe(200);
    expect(store.tracked).toBe(0);
    const row = await servicesOf(t.app)
      .db.kysely.selectFrom('file_entries')
      .select(['sha256', 'mime', 'file_size'])
      .where('hash', '=', done.json().fileEntry.hash)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ sha256: sha(content), mime: 'application/pdf', file_size: content.length });
  });
});
