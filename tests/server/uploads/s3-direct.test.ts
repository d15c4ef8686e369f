import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3Disk } from '../../../server/storage/s3-disk.js';
import { TestClient } from '../support/client.js';
import { createFolder, listNames, signedInUser } from '../support/drive-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

const MB = 1024 * 1024;
const post = (client: TestClient, url: string, body: unknown) => client.request('POST', `/api/v1/${url}`, { body });
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const bytesOf = (size: number, seed: number) => {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i += 1024) bytes[i] = (i / 1024 + seed) % 256;
  return bytes;
};

/** A PUT straight to the peer, as the browser sends it. */
const put = (url: string, body: Buffer, contentType?: string) =>
  fetch(url, { method: 'PUT', body: new Uint8Array(body), headers: contentType ? { 'content-type': contentType } : {} });

async function uploadParts(client: TestClient, key: string, uploadId: string, parts: Buffer[]) {
  const signed = await post(client, 's3/multipart/batch-sign-part-urls', { key, uploadId, partNumbers: parts.map((_, i) => i + 1) });
  expect(signed.statusCode).toBe(200);
  const etags: { PartNumber: number; ETag: string }[] = [];
  for (const { partNumber, url } of signed.json().urls as { partNumber: number; url: string }[]) {
    const res = await put(url, parts[partNumber - 1]!);
    expect(res.status).toBe(200);
    etags.push({ PartNumber: partNumber, ETag: res.headers.get('etag')! });
  }
  return etags;
}

describe.each(['simple', 'multipart'] as const)('direct upload to S3 (%s), end to end against the peer', (path) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ disk: 's3' });
  });
  afterAll(() => t.close());

  it('stores the bytes in the bucket and makes the entry where they lie, in the folder named at the start', async () => {
    const { client } = await signedInUser(t.app);
    const folder = await createFolder(client, 'Inbox');
    const content = path === 'simple' ? bytesOf(300_000, 1) : bytesOf(25 * MB, 2);
    const body = { filename: 'data.bin', mime: 'application/octet-stream', size: content.length, extension: 'bin', metadata: { parentId: folder } };
    let key: string;
    if (path === 'simple') {
      const presigned = await post(client, 's3/simple/presign', body);
      expect(presigned.statusCode).toBe(200);
      expect(presigned.json()).toMatchObject({ acl: 'private', contentType: 'application/octet-stream' });
      key = presigned.json().key;
      expect((await put(presigned.json().url, content, 'application/octet-stream')).status).toBe(200);
    } else {
      const created = await post(client, 's3/multipart/create', body);
      expect(created.statusCode).toBe(200);
      expect(created.json()).toMatchObject({ partSize: 20 * MB, partCount: 2 });
      const { uploadId } = created.json();
      key = created.json().key;
      const parts = await uploadParts(client, key, uploadId, [content.subarray(0, 20 * MB), content.subarray(20 * MB)]);
      const listed = await post(client, 's3/multipart/get-uploaded-parts', { key, uploadId });
      expect(listed.json().parts.map((p: { PartNumber: number; Size: number }) => [p.PartNumber, p.Size])).toEqual([
        [1, 20 * MB],
        [2, 5 * MB],
      ]);
      const completed = await post(client, 's3/multipart/complete', { key, uploadId, parts: [...parts].reverse() });
      expect(completed.statusCode).toBe(200);
    }
    const entry = await post(client, 's3/entries', { filename: key, size: content.length, clientName: 'data.bin', metadata: { parentId: folder } });
    expect(entry.statusCode).toBe(200);
    expect(entry.json().fileEntry).toMatchObject({ name: 'data.bin', file_size: content.length });
    expect(await listNames(client, `folderId=${folder}`)).toEqual(['data.bin']);
    const row = await servicesOf(t.app)
      .db.kysely.selectFrom('file_entries')
      .select(['sha256', 'disk_prefix'])
      .where('name', '=', 'data.bin')
      .executeTakeFirstOrThrow();
    expect(row.sha256).toBe(sha256(content));
    expect(row.disk_prefix).toBe(key);
    // Finished once: the record and its reservation are gone.
    expect((await post(client, 's3/entries', { filename: key })).statusCode).toBe(404);
    expect(await servicesOf(t.app).drive.quota.uploaderOf(key)).toBeUndefined();
  });

  it('checks the upload restrictions and reserves the space before signing anything', async () => {
    await servicesOf(t.app).settings.set({ 'uploads.available_space': 2 * MB, 'uploads.blocked_extensions': ['exe'] });
    try {
      const { client } = await signedInUser(t.app);
      const call = path === 'simple' ? 's3/simple/presign' : 's3/multipart/create';
      const blocked = await post(client, call, { filename: 'setup.exe', mime: 'application/octet-stream', size: 10 });
      expect(blocked.statusCode).toBe(422);
      expect(blocked.json().errors.file).toEqual(['This file type is not allowed']);

      const first = await post(client, call, { filename: 'a.bin', size: 1.5 * MB });
      expect(first.statusCode).toBe(200);
      const refused = await post(client, call, { filename: 'b.bin', size: MB });
      expect(refused.statusCode).toBe(413);
      expect(refused.json().message).toMatch(/not enough storage space/);
      expect(refused.json()).not.toHaveProperty('url');
      const rows = await servicesOf(t.app).db.kysely.selectFrom('s3_uploads').select('name').where('name', '=', 'b.bin').execute();
      expect(rows).toEqual([]);
    } finally {
      await servicesOf(t.app).settings.set({ 'uploads.available_space': null, 'uploads.blocked_extensions': [] });
    }
  });
});

describe('direct multipart uploads: who may do what, and what is checked', () => {
  let t: TestApp;
  let owner: TestClient;
  let other: TestClient;
  let guest: TestClient;
  beforeAll(async () => {
    t = await createTestApp({ disk: 's3' });
    owner = (await signedInUser(t.app)).client;
    other = (await signedInUser(t.app)).client;
    guest = new TestClient(t.app);
  });
  afterAll(() => t.close());

  const start = async (size: number, client = owner) => {
    const res = await post(client, 's3/multipart/create', { filename: 'big.bin', size });
    expect(res.statusCode).toBe(200);
    return res.json() as { key: string; uploadId: string; partSize: number };
  };

  it('tells the client that uploads go straight to the bucket', async () => {
    expect((await owner.get('/api/v1/bootstrap-data')).json().data.settings.uploads).toMatchObject({ direct_s3: true, chunk_size: 5 * MB });
  });

  it('answers 401 to a guest for every call', async () => {
    const { key, uploadId } = await start(10);
    for (const [url, body] of [
      ['s3/simple/presign', { filename: 'a.txt', size: 1 }],
      ['s3/entries', { filename: key }],
      ['s3/multipart/create', { filename: 'a.txt', size: 1 }],
      ['s3/multipart/get-uploaded-parts', { key, uploadId }],
      ['s3/multipart/batch-sign-part-urls', { key, uploadId, partNumbers: [1] }],
      ['s3/multipart/complete', { key, uploadId, parts: [{ PartNumber: 1, ETag: '"x"' }] }],
      ['s3/multipart/abort', { key, uploadId }],
    ] as const) {
      expect((await post(guest, url, body)).statusCode, url).toBe(401);
    }
  });

  it("answers another user's calls on an upload with the 404 of an unknown one, and signs nothing for them", async () => {
    const { key, uploadId } = await start(10);
    for (const [url, body] of [
      ['s3/entries', { filename: key }],
      ['s3/multipart/get-uploaded-parts', { key, uploadId }],
      ['s3/multipart/batch-sign-part-urls', { key, uploadId, partNumbers: [1] }],
      ['s3/multipart/complete', { key, uploadId, parts: [{ PartNumber: 1, ETag: '"x"' }] }],
      ['s3/multipart/abort', { key, uploadId }],
    ] as const) {
      const res = await post(other, url, body);
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).not.toHaveProperty('urls');
    }
    // Unknown keys, and the right key with another store id, are the same 404 for the owner too.
    expect((await post(owner, 's3/multipart/get-uploaded-parts', { key: 'nope', uploadId })).statusCode).toBe(404);
    expect((await post(owner, 's3/multipart/batch-sign-part-urls', { key, uploadId: 'another', partNumbers: [1] })).statusCode).toBe(404);
    // The upload is untouched by all that.
    expect((await post(owner, 's3/multipart/get-uploaded-parts', { key, uploadId })).json().parts).toEqual([]);
  });

  it("refuses to start an upload into another user's folder", async () => {
    const folder = await createFolder(other, 'Theirs');
    const res = await post(owner, 's3/multipart/create', { filename: 'a.bin', size: 10, metadata: { parentId: folder } });
    expect([403, 404]).toContain(res.statusCode);
    expect(res.json()).not.toHaveProperty('uploadId');
  });

  it('signs only the part numbers the declared size has', async () => {
    const { key, uploadId } = await start(25 * MB);
    const res = await post(owner, 's3/multipart/batch-sign-part-urls', { key, uploadId, partNumbers: [1, 2, 3] });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.partNumbers).toEqual(['This upload has 2 parts.']);
    expect(
      (await post(owner, 's3/multipart/batch-sign-part-urls', { key, uploadId, partNumbers: Array.from({ length: 11 }, (_, i) => i + 1) })).statusCode,
    ).toBe(422);
  });

  it('refuses a parts list that does not match the store (missing part, wrong ETag, wrong numbers), keeping the upload', async () => {
    const { key, uploadId } = await start(25 * MB);
    const [first] = await uploadParts(owner, key, uploadId, [bytesOf(20 * MB, 3)]);
    const missing = await post(owner, 's3/multipart/complete', { key, uploadId, parts: [first] });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors.parts).toHaveLength(1);
    const signed = await post(owner, 's3/multipart/batch-sign-part-urls', { key, uploadId, partNumbers: [2] });
    const second = await put(signed.json().urls[0].url, bytesOf(5 * MB, 4));
    const good = { PartNumber: 2, ETag: second.headers.get('etag')! };
    for (const parts of [
      [first, { ...good, ETag: '"00000000000000000000000000000000"' }],
      [first, good, { ...good, PartNumber: 3 }],
      [first, { ...good, PartNumber: 1 }],
    ]) {
      expect((await post(owner, 's3/multipart/complete', { key, uploadId, parts })).statusCode).toBe(422);
    }
    expect((await post(owner, 's3/multipart/complete', { key, uploadId, parts: [first, good] })).statusCode).toBe(200);
    expect((await post(owner, 's3/entries', { filename: key })).statusCode).toBe(200);
  });

  it('refuses to complete parts whose sizes do not add up to the reserved size', async () => {
    const { key, uploadId } = await start(25 * MB);
    const parts = await uploadParts(owner, key, uploadId, [bytesOf(20 * MB, 5), bytesOf(6 * MB, 6)]);
    const res = await post(owner, 's3/multipart/complete', { key, uploadId, parts });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.size).toEqual([`The upload holds ${26 * MB} bytes; ${25 * MB} were declared.`]);
    expect((await post(owner, 's3/entries', { filename: key })).statusCode).toBe(409);
  });

  it('releases the space at once when aborted, and the store drops the parts', async () => {
    await servicesOf(t.app).settings.set({ 'uploads.available_space': 30 * MB });
    try {
      const { client } = await signedInUser(t.app);
      const { key, uploadId } = await start(25 * MB, client);
      await uploadParts(client, key, uploadId, [bytesOf(20 * MB, 7)]);
      const objectKey = await objectKeyOf(t, key);
      expect(await disk(t).listParts(objectKey, uploadId)).toHaveLength(1);
      expect((await post(client, 's3/multipart/create', { filename: 'next.bin', size: 25 * MB })).statusCode).toBe(413);
      expect((await post(client, 's3/multipart/abort', { key, uploadId })).statusCode).toBe(204);
      await expect(disk(t).listParts(objectKey, uploadId)).rejects.toThrow(/upload does not exist/);
      expect((await post(client, 's3/multipart/get-uploaded-parts', { key, uploadId })).statusCode).toBe(404);
      expect((await post(client, 's3/multipart/create', { filename: 'next.bin', size: 25 * MB })).statusCode).toBe(200);
    } finally {
      await servicesOf(t.app).settings.set({ 'uploads.available_space': null });
    }
  });

  it('housekeeping aborts uploads untouched for 24 hours and releases their space; active ones stay', async () => {
    const abandoned = await start(25 * MB);
    const active = await start(25 * MB);
    await uploadParts(owner, abandoned.key, abandoned.uploadId, [bytesOf(20 * MB, 8)]);
    const objectKey = await objectKeyOf(t, abandoned.key);
    const past = new Date(Date.now() - 1000).toISOString();
    await servicesOf(t.app).db.kysely.updateTable('s3_uploads').set({ expires_at: past }).where('id', '=', abandoned.key).execute();
    expect(await servicesOf(t.app).uploads.s3Uploads.expireAbandoned()).toBe(1);
    await expect(disk(t).listParts(objectKey, abandoned.uploadId)).rejects.toThrow(/upload does not exist/);
    expect(await servicesOf(t.app).drive.quota.uploaderOf(abandoned.key)).toBeUndefined();
    expect((await post(owner, 's3/multipart/get-uploaded-parts', active)).statusCode).toBe(200);
  });
});

const disk = (t: TestApp): S3Disk => {
  const found = servicesOf(t.app).drive.disk;
  if (!(found instanceof S3Disk)) throw new Error('These tests run on the S3 disk.');
  return found;
};

/** The upload's object key on the disk, from its stored record. */
async function objectKeyOf(t: TestApp, key: string): Promise<string> {
  const row = await servicesOf(t.app).db.kysely.selectFrom('s3_uploads').select('file_name').where('id', '=', key).executeTakeFirstOrThrow();
  return `${key}/${row.file_name}`;
}

describe('presigned URLs are checked by the peer', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ disk: 's3', env: { S3_URL_EXPIRES: '2' } });
  });
  afterAll(() => t.close());

  it('refuses a tampered URL, another size or type than signed, and an expired URL', async () => {
    const { client } = await signedInUser(t.app);
    const presigned = (await post(client, 's3/simple/presign', { filename: 'a.txt', mime: 'text/plain', size: 5 })).json();
    const url = new URL(presigned.url);
    const signature = url.searchParams.get('X-Amz-Signature')!;
    url.searchParams.set('X-Amz-Signature', `${signature.startsWith('0') ? '1' : '0'}${signature.slice(1)}`);
    expect((await put(url.toString(), Buffer.from('hello'), 'text/plain')).status).toBe(403);
    const otherKey = presigned.url.replace(`/${presigned.key}/`, `/${presigned.key}x/`);
    expect((await put(otherKey, Buffer.from('hello'), 'text/plain')).status).toBe(403);
    expect((await put(presigned.url, Buffer.from('hello!'), 'text/plain')).status).toBe(403);
    expect((await put(presigned.url, Buffer.from('hello'), 'text/html')).status).toBe(403);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect((await put(presigned.url, Buffer.from('hello'), 'text/plain')).status).toBe(403);
    expect((await post(client, 's3/entries', { filename: presigned.key })).statusCode).toBe(409);
  });

  it('refuses a part URL used for another part number or with another verb', async () => {
    const { client } = await signedInUser(t.app);
    const { key, uploadId } = (await post(client, 's3/multipart/create', { filename: 'a.bin', size: 10 })).json();
    const { urls } = (await post(client, 's3/multipart/batch-sign-part-urls', { key, uploadId, partNumbers: [1] })).json();
    const other = new URL(urls[0].url);
    other.searchParams.set('partNumber', '2');
    expect((await put(other.toString(), Buffer.from('x'))).status).toBe(403);
    expect((await fetch(urls[0].url, { method: 'DELETE' })).status).toBe(403);
  });
});

describe('without an S3 disk', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers the direct upload calls with 404, and tells the client to upload through the app', async () => {
    const { client } = await signedInUser(t.app);
    expect((await client.get('/api/v1/bootstrap-data')).json().data.settings.uploads.direct_s3).toBe(false);
    const res = await post(client, 's3/simple/presign', { filename: 'a.txt', size: 1 });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Direct uploads to storage are not enabled on this server.');
    expect((await post(client, 's3/multipart/create', { filename: 'a.txt', size: 1 })).statusCode).toBe(404);
  });
});
