import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../support/client.js';
import { createFolder, listNames, signedInUser } from '../support/drive-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTusUpload } from '../uploads/support.js';
import { contentOf, upload, versionsOf } from './support.js';
import { servicesOf } from '../support/services-handle.js';

// An upload whose name is taken (issue 34): the queue asks first (onConflict
// "ask" answers 409 NAME_TAKEN before a byte is kept), then sends the
// person's choice — "replace" (the old bytes become a version) or "rename"
// (keep both) — on every path: plain, tus, and direct to S3.

const used = async (client: TestClient) => (await client.get('/api/v1/user/space-usage')).json().used as number;

describe('uploads that ask before taking a name', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('plain: "ask" is refused with 409 NAME_TAKEN and nothing is stored; a free name goes through', async () => {
    const { client } = await signedInUser(t.app);
    const folder = await createFolder(client, 'Inbox');
    const first = (await upload(client, 'a.txt', 'one', { parentId: folder })).json().fileEntry as { id: string };
    const before = await used(client);
    const asked = await upload(client, 'a.txt', 'two!', { parentId: folder, onConflict: 'ask' });
    expect(asked.statusCode).toBe(409);
    expect(asked.json().errors.name).toEqual(['An item named "a.txt" already exists in this folder.']);
    expect(await listNames(client, `folderId=${folder}`)).toEqual(['a.txt']);
    expect(await contentOf(client, first.id)).toBe('one');
    expect(await used(client)).toBe(before);
    // A name that is free is simply stored.
    expect((await upload(client, 'b.txt', 'bee', { parentId: folder, onConflict: 'ask' })).statusCode).toBe(200);
    // The answers the person can give.
    const replaced = await upload(client, 'a.txt', 'two!', { parentId: folder, onConflict: 'replace' });
    expect(replaced.json().fileEntry.id).toBe(first.id);
    expect((await versionsOf(client, first.id)).map((v) => v.file_size)).toEqual([3]);
    expect((await upload(client, 'a.txt', 'three', { parentId: folder, onConflict: 'rename' })).json().fileEntry.name).toBe('a (1).txt');
  });

  it('plain: a file inside folders the upload makes is checked when it is stored', async () => {
    const { client } = await signedInUser(t.app);
    await upload(client, 'c.txt', 'one', { relativePath: 'Photos/c.txt' });
    const asked = await upload(client, 'c.txt', 'two', { relativePath: 'Photos/c.txt', onConflict: 'ask' });
    expect(asked.statusCode).toBe(409);
    expect(asked.json().errors.name).toBeDefined();
  });

  it('tus: "ask" is refused when the upload is created, before any byte is sent', async () => {
    const { client } = await signedInUser(t.app);
    await upload(client, 'big.bin', 'old');
    const asked = await createTusUpload(client, 10, { name: 'big.bin', onConflict: 'ask' });
    expect(asked.statusCode).toBe(409);
    expect(asked.headers.location).toBeUndefined();
    const free = await createTusUpload(client, 10, { name: 'other.bin', onConflict: 'ask' });
    expect(free.statusCode).toBe(201);
    expect((await createTusUpload(client, 10, { name: 'x.bin', onConflict: 'sideways' })).statusCode).toBe(422);
  });
});

/** A PUT straight to the peer, as the browser sends it. */
const put = (url: string, body: Buffer) => fetch(url, { method: 'PUT', body: new Uint8Array(body), headers: { 'content-type': 'text/plain' } });
const post = (client: TestClient, url: string, body: unknown) => client.request('POST', `/api/v1/${url}`, { body });

describe('direct uploads to S3 honour onConflict as the other paths do', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ disk: 's3' });
  });
  afterAll(() => t.close());

  /** A simple direct upload; answers the s3/entries response. */
  async function direct(client: TestClient, folder: string, name: string, content: string, onConflict?: string, finishWith = onConflict) {
    const metadata = { parentId: folder, ...(onConflict ? { onConflict } : {}) };
    const presigned = await post(client, 's3/simple/presign', { filename: name, mime: 'text/plain', size: content.length, metadata });
    if (presigned.statusCode !== 200) return presigned;
    expect((await put(presigned.json().url, Buffer.from(content))).status).toBe(200);
    const finish = { parentId: folder, ...(finishWith ? { onConflict: finishWith } : {}) };
    return post(client, 's3/entries', { filename: presigned.json().key, size: content.length, clientName: name, metadata: finish });
  }

  it("replace makes the bytes the file's new content (the old ones a version); rename keeps both", async () => {
    const { client } = await signedInUser(t.app);
    const folder = await createFolder(client, 'Bucket');
    const first = (await direct(client, folder, 'n.txt', 'one')).json().fileEntry as { id: string };
    const replaced = await direct(client, folder, 'n.txt', 'two!', 'replace');
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json().fileEntry.id).toBe(first.id);
    expect(await contentOf(client, first.id)).toBe('two!');
    expect((await versionsOf(client, first.id)).map((v) => v.file_size)).toEqual([3]);
    expect((await direct(client, folder, 'n.txt', 'three', 'rename')).json().fileEntry.name).toBe('n (1).txt');
    expect(await listNames(client, `folderId=${folder}`)).toEqual(expect.arrayContaining(['n.txt', 'n (1).txt']));
  });

  it('ask: refused before anything is signed, or at the finish when the name was taken meanwhile', async () => {
    const { client } = await signedInUser(t.app);
    const folder = await createFolder(client, 'Bucket');
    await direct(client, folder, 'm.txt', 'one');
    for (const call of ['s3/simple/presign', 's3/multipart/create']) {
      const refused = await post(client, call, { filename: 'm.txt', size: 3, metadata: { parentId: folder, onConflict: 'ask' } });
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).not.toHaveProperty('url');
    }
    // Free when signed, taken by the time it is finished: the finish asks again.
    const presigned = await post(client, 's3/simple/presign', {
      filename: 'late.txt',
      mime: 'text/plain',
      size: 3,
      metadata: { parentId: folder, onConflict: 'ask' },
    });
    expect(presigned.statusCode).toBe(200);
    expect((await put(presigned.json().url, Buffer.from('new'))).status).toBe(200);
    await direct(client, folder, 'late.txt', 'old');
    const late = await post(client, 's3/entries', { filename: presigned.json().key, size: 3, metadata: { parentId: folder, onConflict: 'ask' } });
    expect(late.statusCode).toBe(409);
    expect(late.json().errors.name).toBeDefined();
    expect((await listNames(client, `folderId=${folder}`)).sort()).toEqual(['late.txt', 'm.txt']);
    // Its reservation is given back.
    expect(await servicesOf(t.app).drive.quota.uploaderOf(presigned.json().key)).toBeUndefined();
  });
});
