import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.js';
import { createFolder, listNames, signedInUser } from '../support/drive-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTusUpload, patchTus } from './support.js';
import { servicesOf } from '../support/services-handle.js';

describe('resumable uploads (tus 1.0 at /api/v1/tus/upload)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() =>
    servicesOf(t.app).settings.set({ 'uploads.max_size': 1024 * 1024, 'uploads.available_space': 10 * 1024 * 1024, 'uploads.blocked_extensions': [] }),
  );

  it('should require authentication', async () => {
    const res = await createTusUpload(new TestClient(t.app), 10, { name: 'a.txt' });
    expect(res.statusCode).toBe(401);
  });

  it('requires the XSRF header from a browser session', async () => {
    const { client } = await signedInUser(t.app);
    client.xsrf = false;
    expect((await createTusUpload(client, 10, { name: 'a.txt' })).statusCode).toBe(403);
  });

  it('uploads in chunks, resumes from HEAD’s offset and becomes a file entry with its sha256', async () => {
    const { client } = await signedInUser(t.app);
    const folder = await createFolder(client, 'Inbox');
    const content = Buffer.alloc(300_000);
    for (let i = 0; i < content.length; i += 1) content[i] = (i * 7) % 251;
    const created = await createTusUpload(client, content.length, { name: 'data.bin', parentId: folder, mime: 'application/octet-stream' });
    expect(created.statusCode).toBe(201);
    const location = created.headers.location as string;
    expect(location).toMatch(/^\/api\/v1\/tus\/upload\/[A-Za-z0-9_-]{32}$/);

    const first = await patchTus(client, location, 0, content.subarray(0, 100_000));
    expect(first.statusCode).toBe(204);
    expect(first.headers['upload-offset']).toBe('100000');

    const head = await client.request('HEAD', location, { headers: { 'tus-resumable': '1.0.0' } });
    expect(head.headers['upload-offset']).toBe('100000');
    expect(head.headers['upload-length']).toBe(String(content.length));

    // Early finish is refused: the entry exists only for complete uploads.
    const key = location.split('/').pop()!;
    expect((await client.post('/api/v1/tus/entries', { uploadKey: key })).statusCode).toBe(409);

    expect((await patchTus(client, location, 100_000, content.subarray(100_000))).statusCode).toBe(204);
    const done = await client.post('/api/v1/tus/entries', { uploadKey: key });
    expect(done.statusCode).toBe(200);
    const { fileEntry } = done.json();
    expect(fileEntry).toMatchObject({ name: 'data.bin', file_size: content.length, parent_id: folder });
    const row = await servicesOf(t.app).db.kysely.selectFrom('file_entries').select('sha256').where('hash', '=', fileEntry.hash).executeTakeFirstOrThrow();
    expect(row.sha256).toBe(createHash('sha256').update(content).digest('hex'));

    // The upload's bytes and reservation are gone once it became a file.
    expect((await client.request('HEAD', location, { headers: { 'tus-resumable': '1.0.0' } })).statusCode).toBe(404);
  });

  it('answers a wrong offset with 409 and leaves the upload unchanged', async () => {
    const { client } = await signedInUser(t.app);
    const location = (await createTusUpload(client, 10, { name: 'a.txt' })).headers.location as string;
    await patchTus(client, location, 0, Buffer.from('hello'));
    const wrong = await patchTus(client, location, 2, Buffer.from('XXXXX'));
    expect(wrong.statusCode).toBe(409);
    const head = await client.request('HEAD', location, { headers: { 'tus-resumable': '1.0.0' } });
    expect(head.headers['upload-offset']).toBe('5');
  });

  it('answers a wrong Tus-Resumable with 412 and a wrong content type with 415', async () => {
    const { client } = await signedInUser(t.app);
    const location = (await createTusUpload(client, 10, { name: 'a.txt' })).headers.location as string;
    expect((await patchTus(client, location, 0, Buffer.from('x'), { 'tus-resumable': '0.2.2' })).statusCode).toBe(412);
    expect((await patchTus(client, location, 0, Buffer.from('x'), { 'content-type': 'application/json' })).statusCode).toBe(415);
  });

  it('answers an upload over the maximum size with 413 and the spec’s message', async () => {
    await servicesOf(t.app).settings.set({ 'uploads.max_size': 1024 });
    const { client } = await signedInUser(t.app);
    const res = await createTusUpload(client, 4096, { name: 'big.iso' });
    expect(res.statusCode).toBe(413);
    expect(JSON.parse(res.body).message).toBe('big.iso exceeds maximum allowed size of 1 KB');
  });

  it('refuses blocked types before any byte is stored', async () => {
    await servicesOf(t.app).settings.set({ 'uploads.blocked_extensions': ['exe'] });
    const { client } = await signedInUser(t.app);
    const res = await createTusUpload(client, 10, { name: 'setup.exe' });
    expect(res.statusCode).toBe(422);
    expect(JSON.parse(res.body).errors.file).toEqual(['This file type is not allowed']);
  });

  it('answers another user’s upload id with 404, for every method', async () => {
    const owner = await signedInUser(t.app);
    const location = (await createTusUpload(owner.client, 10, { name: 'a.txt' })).headers.location as string;
    const { client } = await signedInUser(t.app);
    expect((await client.request('HEAD', location, { headers: { 'tus-resumable': '1.0.0' } })).statusCode).toBe(404);
    expect((await patchTus(client, location, 0, Buffer.from('x'))).statusCode).toBe(404);
    expect((await client.post('/api/v1/tus/entries', { uploadKey: location.split('/').pop() })).statusCode).toBe(404);
    expect((await owner.client.request('HEAD', location, { headers: { 'tus-resumable': '1.0.0' } })).statusCode).toBe(200);
  });

  it('keeps 20 parallel uploads that each fit from exceeding the remaining space together', async () => {
    await servicesOf(t.app).settings.set({ 'uploads.available_space': 100_000 });
    const { client } = await signedInUser(t.app);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => createTusUpload(client, 99_000, { name: `part${i}.bin` })));
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 413)).toHaveLength(19);
    expect(JSON.parse(results.find((r) => r.statusCode === 413)!.body).message).toMatch(/not enough storage space/);
  });

  it('creates the folders of relativePath when the upload finishes', async () => {
    const { client } = await signedInUser(t.app);
    const location = (await createTusUpload(client, 3, { name: 'c.txt', relativePath: 'album/c.txt', parentId: '0' })).headers.location as string;
    await patchTus(client, location, 0, Buffer.from('abc'));
    expect((await client.post('/api/v1/tus/entries', { uploadKey: location.split('/').pop() })).statusCode).toBe(200);
    expect(await listNames(client, 'folderId=0')).toEqual(['album']);
  });
});

describe('abandoned resumable uploads', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('lose their bytes and their reservation after 24 hours', async () => {
    const { expireUploads } = await import('../../../server/jobs/housekeeping.js');
    const { client } = await signedInUser(t.app);
    const location = (await createTusUpload(client, 10, { name: 'a.txt' })).headers.location as string;
    await patchTus(client, location, 0, Buffer.from('hello'));
    const key = location.split('/').pop()!;
    const expiry = { tus: servicesOf(t.app).uploads.tus, quota: servicesOf(t.app).drive.quota };
    expect(await expireUploads(expiry)).toEqual({ uploads: 0, reservations: 0 });

    // Make the upload look a day old: its creation date and the reservation's expiry.
    const store = servicesOf(t.app).uploads.tusFiles.store;
    const upload = await store.getUpload(key);
    upload.creation_date = new Date(Date.now() - 25 * 60 * 60 * 1000).toISOString();
    await store.configstore.set(key, upload);
    await servicesOf(t.app)
      .db.kysely.updateTable('upload_reservations')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('key', '=', key)
      .execute();

    expect(await expireUploads(expiry)).toEqual({ uploads: 1, reservations: 1 });
    expect((await client.request('HEAD', location, { headers: { 'tus-resumable': '1.0.0' } })).statusCode).toBe(404);
  });
});
