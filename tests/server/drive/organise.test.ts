import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.js';
import { createFolder, listNames, signedInUser, uploadFile } from '../support/drive-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

describe('move, duplicate and stars', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const sizeOf = async (client: TestClient, hash: string): Promise<number> => (await client.get(`/api/v1/file-entries/${hash}`)).json().fileEntry.file_size;

  it('should require authentication', async () => {
    const client = new TestClient(t.app);
    for (const url of ['/api/v1/file-entries/move', '/api/v1/file-entries/duplicate', '/api/v1/file-entries/star', '/api/v1/file-entries/unstar']) {
      expect((await client.post(url, { entryIds: ['x'] })).statusCode, url).toBe(401);
    }
  });

  it('rolls file sizes up to every folder above on create', async () => {
    const { user, client } = await signedInUser(t.app);
    const a = await createFolder(client, 'A');
    const b = await createFolder(client, 'B', a);
    await uploadFile(t.app, user, { name: 'one.txt', content: 'x'.repeat(100), parentId: b });
    await uploadFile(t.app, user, { name: 'two.txt', content: 'x'.repeat(20), parentId: a });
    expect(await sizeOf(client, a)).toBe(120);
    expect(await sizeOf(client, b)).toBe(100);
  });

  it('moves entries with their subtrees and moves the sizes with them', async () => {
    const { user, client } = await signedInUser(t.app);
    const from = await createFolder(client, 'From');
    const to = await createFolder(client, 'To');
    const inner = await createFolder(client, 'Inner', from);
    const file = await uploadFile(t.app, user, { name: 'data.txt', content: 'x'.repeat(50), parentId: inner });

    const res = await client.post('/api/v1/file-entries/move', { entryIds: [inner], destinationId: to });
    expect(res.statusCode).toBe(200);
    expect(res.json().entries).toEqual([expect.objectContaining({ hash: inner, parent_id: to })]);
    expect(await sizeOf(client, from)).toBe(0);
    expect(await sizeOf(client, to)).toBe(50);
    expect((await client.get(`/api/v1/folders/${inner}/path`)).json().path.map((p: { name: string }) => p.name)).toEqual(['To', 'Inner']);
    expect((await client.get(`/api/v1/file-entries/${file.hash}`)).json().fileEntry.path.map((p: { name: string }) => p.name)).toEqual(['To', 'Inner']);

    // And back to the root.
    await client.post('/api/v1/file-entries/move', { entryIds: [inner], destinationId: '0' });
    expect(await sizeOf(client, to)).toBe(0);
    expect(await listNames(client, 'orderBy=name&orderDir=asc')).toEqual(['From', 'Inner', 'To']);
  });

  it('refuses to move a folder into itself or one of its subfolders with 422', async () => {
    const { client } = await signedInUser(t.app);
    const top = await createFolder(client, 'Top');
    const child = await createFolder(client, 'Child', top);
    const grandchild = await createFolder(client, 'Grandchild', child);
    for (const destinationId of [top, child, grandchild]) {
      const res = await client.post('/api/v1/file-entries/move', { entryIds: [top], destinationId });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual({ destinationId: ['A folder cannot be moved or copied into itself or one of its subfolders.'] });
    }
    // Moving some other folder into it is fine.
    const sibling = await createFolder(client, 'Sibling');
    expect((await client.post('/api/v1/file-entries/move', { entryIds: [sibling], destinationId: top })).statusCode).toBe(200);
  });

  it("gives a moved entry a ' (1)' suffix when its name is taken in the destination", async () => {
    const { user, client } = await signedInUser(t.app);
    const dest = await createFolder(client, 'Dest');
    await uploadFile(t.app, user, { name: 'report.txt', parentId: dest });
    await uploadFile(t.app, user, { name: 'report (1).txt', parentId: dest });
    const moving = await uploadFile(t.app, user, { name: 'report.txt' });
    const res = await client.post('/api/v1/file-entries/move', { entryIds: [moving.hash], destinationId: dest });
    expect(res.json().entries[0].name).toBe('report (2).txt');
    expect(await listNames(client, `folderId=${dest}&orderBy=name&orderDir=asc`)).toEqual(['report (1).txt', 'report (2).txt', 'report.txt']);
  });

  it("refuses moves of another user's entries or into another user's folder with 404", async () => {
    const owner = await signedInUser(t.app);
    const theirs = await createFolder(owner.client, 'Theirs');
    const theirFile = await uploadFile(t.app, owner.user, { name: 't.txt' });
    const { user, client } = await signedInUser(t.app);
    const mine = await uploadFile(t.app, user, { name: 'm.txt' });
    expect((await client.post('/api/v1/file-entries/move', { entryIds: [mine.hash], destinationId: theirs })).statusCode).toBe(404);
    expect((await client.post('/api/v1/file-entries/move', { entryIds: [theirFile.hash], destinationId: '0' })).statusCode).toBe(404);
    expect((await client.post('/api/v1/file-entries/duplicate', { entryIds: [theirFile.hash] })).statusCode).toBe(404);
    expect((await client.post('/api/v1/file-entries/star', { entryIds: [theirFile.hash] })).statusCode).toBe(404);
  });

  it('refuses a copy that does not fit in the remaining space, and copies nothing', async () => {
    const { user, client } = await signedInUser(t.app, {
      permissions: [{ name: 'files.create', restrictions: [{ name: 'max_space', value: 1500 }] }],
    });
    const folder = await createFolder(client, 'Big');
    await uploadFile(t.app, user, { name: 'a.bin', content: Buffer.alloc(400), parentId: folder });
    await uploadFile(t.app, user, { name: 'b.bin', content: Buffer.alloc(400), parentId: folder });
    const res = await client.post('/api/v1/file-entries/duplicate', { entryIds: [folder] });
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toMatch(/not enough storage space/);
    expect(await listNames(client, 'folderId=0')).toEqual(['Big']);
    expect((await client.get('/api/v1/user/space-usage')).json()).toEqual({ used: 800, available: 1500 });
  });

  it("duplicates files beside the original with ' (1)' names and new storage objects", async () => {
    const { user, client } = await signedInUser(t.app);
    const file = await uploadFile(t.app, user, { name: 'photo.txt', content: 'original bytes' });
    const res = await client.post('/api/v1/file-entries/duplicate', { entryIds: [file.hash] });
    expect(res.statusCode).toBe(200);
    const copy = res.json().entries[0];
    expect(copy).toMatchObject({ name: 'photo (1).txt', file_size: file.file_size, parent_id: null });
    expect(copy.hash).not.toBe(file.hash);
    const again = await client.post('/api/v1/file-entries/duplicate', { entryIds: [file.hash] });
    expect(again.json().entries[0].name).toBe('photo (2).txt');

    const db = servicesOf(t.app).db.kysely;
    const rows = await db.selectFrom('file_entries').select(['disk_prefix', 'file_name', 'sha256']).where('hash', 'in', [file.hash, copy.hash]).execute();
    expect(new Set(rows.map((r) => r.disk_prefix)).size).toBe(2);
    expect(new Set(rows.map((r) => r.sha256)).size).toBe(1);
    // Deleting the original forever leaves the copy's bytes.
    await client.post('/api/v1/file-entries/delete', { entryIds: [file.hash], deleteForever: true });
    const download = await client.get(`/api/v1/file-entries/download?hashes=${copy.hash}`);
    expect(download.body).toBe('original bytes');
  });

  it('duplicates folders deeply into a destination, rolling the size up there', async () => {
    const { user, client } = await signedInUser(t.app);
    const album = await createFolder(client, 'Album');
    const sub = await createFolder(client, 'Sub', album);
    await uploadFile(t.app, user, { name: 'a.txt', content: 'aaaa', parentId: album });
    await uploadFile(t.app, user, { name: 'b.txt', content: 'bbbbbb', parentId: sub });
    const trashed = await uploadFile(t.app, user, { name: 'gone.txt', content: 'zz', parentId: sub });
    await client.post('/api/v1/file-entries/delete', { entryIds: [trashed.hash] });
    const dest = await createFolder(client, 'Backup');

    const res = await client.post('/api/v1/file-entries/duplicate', { entryIds: [album], destinationId: dest });
    const copy = res.json().entries[0];
    expect(copy).toMatchObject({ name: 'Album', parent_id: dest, file_size: 10 });
    expect(await sizeOf(client, dest)).toBe(10);
    expect(await listNames(client, `folderId=${copy.hash}&orderBy=name&orderDir=asc`)).toEqual(['Sub', 'a.txt']);
    const subCopy = (await client.get(`/api/v1/drive/file-entries?folderId=${copy.hash}&type=folder`)).json().pagination.data[0];
    // Only what is live is copied: the trashed file stays behind.
    expect(await listNames(client, `folderId=${subCopy.hash}`)).toEqual(['b.txt']);
    const bytes = await client.get(
      `/api/v1/file-entries/download?hashes=${(await client.get(`/api/v1/drive/file-entries?folderId=${subCopy.hash}`)).json().pagination.data[0].hash}`,
    );
    expect(bytes.body).toBe('bbbbbb');

    const into = await client.post('/api/v1/file-entries/duplicate', { entryIds: [album], destinationId: sub });
    expect(into.statusCode).toBe(422);
  });

  it('stars and unstars entries for the user', async () => {
    const { user, client } = await signedInUser(t.app);
    const file = await uploadFile(t.app, user, { name: 's.txt' });
    const starred = await client.post('/api/v1/file-entries/star', { entryIds: [file.hash, file.hash] });
    expect(starred.json().entries.map((e: { is_starred: boolean }) => e.is_starred)).toEqual([true]);
    // Starring twice is harmless.
    expect((await client.post('/api/v1/file-entries/star', { entryIds: [file.hash] })).statusCode).toBe(200);
    const unstarred = await client.post('/api/v1/file-entries/unstar', { entryIds: [file.hash] });
    expect(unstarred.json().entries[0].is_starred).toBe(false);
    expect(await listNames(client, 'starredOnly=true')).toEqual([]);
  });
});
