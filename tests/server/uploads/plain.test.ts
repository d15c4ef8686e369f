import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.js';
import { createFolder, listNames, signedInUser } from '../support/drive-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { multipartUpload } from './support.js';
import { servicesOf } from '../support/services-handle.js';

describe('POST /api/v1/file-entries (plain upload)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() =>
    servicesOf(t.app).settings.set({
      'uploads.max_size': 5 * 1024 * 1024,
      'uploads.allowed_extensions': [],
      'uploads.blocked_extensions': [],
      'uploads.available_space': 10 * 1024 * 1024,
    }),
  );

  const upload = (client: TestClient, fields: Record<string, string>, file: { name: string; type?: string; content: Buffer }) => {
    const { body, headers } = multipartUpload(fields, file);
    return client.request('POST', '/api/v1/file-entries', { body, headers });
  };

  it('should require authentication', async () => {
    const res = await upload(new TestClient(t.app), { parentId: '0' }, { name: 'a.txt', content: Buffer.from('x') });
    expect(res.statusCode).toBe(401);
  });

  it('stores the file in its folder, sniffs its type and keeps its sha256', async () => {
    const { user, client } = await signedInUser(t.app);
    const folder = await createFolder(client, 'Docs');
    const content = Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
    const res = await upload(client, { parentId: folder }, { name: 'report.pdf', type: 'text/plain', content });
    expect(res.statusCode).toBe(200);
    const { fileEntry } = res.json();
    expect(fileEntry).toMatchObject({ name: 'report.pdf', mime: 'application/pdf', type: 'pdf', file_size: content.length, parent_id: folder });
    const row = await servicesOf(t.app)
      .db.kysely.selectFrom('file_entries')
      .select(['sha256', 'owner_id'])
      .where('hash', '=', fileEntry.hash)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ sha256: createHash('sha256').update(content).digest('hex'), owner_id: user.id });
  });

  it('creates the folders of a relative path and reuses them for the next file', async () => {
    const { client } = await signedInUser(t.app);
    await upload(client, { parentId: '0', relativePath: 'photos/2024/a.txt' }, { name: 'a.txt', content: Buffer.from('a') });
    await upload(client, { parentId: '0', relativePath: 'photos/2024/b.txt' }, { name: 'b.txt', content: Buffer.from('b') });
    expect(await listNames(client, 'folderId=0')).toEqual(['photos']);
    const photos = (await client.get('/api/v1/drive/file-entries?folderId=0')).json().pagination.data[0].hash;
    const year = (await client.get(`/api/v1/drive/file-entries?folderId=${photos}`)).json().pagination.data[0];
    expect(year.name).toBe('2024');
    expect(await listNames(client, `folderId=${year.hash}&orderBy=name&orderDir=asc`)).toEqual(['a.txt', 'b.txt']);
  });

  it('refuses a relative path that climbs out', async () => {
    const { client } = await signedInUser(t.app);
    const res = await upload(client, { parentId: '0', relativePath: '../etc/passwd' }, { name: 'passwd', content: Buffer.from('x') });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['relativePath']);
  });

  it('refuses files over the maximum size with the spec’s message', async () => {
    await servicesOf(t.app).settings.set({ 'uploads.max_size': 1024 });
    const { client } = await signedInUser(t.app);
    const res = await upload(client, { parentId: '0' }, { name: 'big.bin', content: Buffer.alloc(4096, 1) });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.file).toEqual(['big.bin exceeds maximum allowed size of 1 KB']);
    expect(await listNames(client, 'folderId=0')).toEqual([]);
  });

  it('refuses blocked types by extension and by MIME pattern, and unlisted ones when a list of allowed types is set', async () => {
    const { client } = await signedInUser(t.app);
    await servicesOf(t.app).settings.set({ 'uploads.blocked_extensions': ['exe', 'image/*'] });
    for (const file of [
      { name: 'setup.EXE', content: Buffer.from('MZ') },
      { name: 'photo.dat', type: 'image/png', content: Buffer.from('x') },
    ]) {
      const res = await upload(client, { parentId: '0' }, file);
      expect(res.statusCode, file.name).toBe(422);
      expect(res.json().errors.file).toEqual(['This file type is not allowed']);
    }
    await servicesOf(t.app).settings.set({ 'uploads.blocked_extensions': [], 'uploads.allowed_extensions': ['txt'] });
    expect((await upload(client, { parentId: '0' }, { name: 'notes.md', content: Buffer.from('x') })).statusCode).toBe(422);
    expect((await upload(client, { parentId: '0' }, { name: 'notes.txt', content: Buffer.from('x') })).statusCode).toBe(200);
  });

  it('checks the sniffed type, not only the name', async () => {
    const { client } = await signedInUser(t.app);
    await servicesOf(t.app).settings.set({ 'uploads.blocked_extensions': ['image/*'] });
    const png = Buffer.from(
      '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4d50000000049454e44ae426082',
      'hex',
    );
    const res = await upload(client, { parentId: '0' }, { name: 'innocent.txt', type: 'text/plain', content: png });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.file).toEqual(['This file type is not allowed']);
    expect(await listNames(client, 'folderId=0')).toEqual([]);
  });

  it('answers 413 when the upload does not fit in the remaining space', async () => {
    await servicesOf(t.app).settings.set({ 'uploads.available_space': 2000 });
    const { client } = await signedInUser(t.app);
    expect((await upload(client, { parentId: '0' }, { name: 'a.bin', content: Buffer.alloc(1000) })).statusCode).toBe(200);
    const res = await upload(client, { parentId: '0' }, { name: 'b.bin', content: Buffer.alloc(1000) });
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toMatch(/not enough storage space/);
  });

  it('skips .DS_Store', async () => {
    const { client } = await signedInUser(t.app);
    const res = await upload(client, { parentId: '0' }, { name: '.DS_Store', content: Buffer.from('junk') });
    expect(res.statusCode).toBe(422);
    expect(await listNames(client, 'folderId=0')).toEqual([]);
  });

  it('cannot upload into another user’s folder', async () => {
    const owner = await signedInUser(t.app);
    const folder = await createFolder(owner.client, 'Private');
    const { client } = await signedInUser(t.app);
    const res = await upload(client, { parentId: folder }, { name: 'x.txt', content: Buffer.from('x') });
    expect(res.statusCode).toBe(404);
  });
});
