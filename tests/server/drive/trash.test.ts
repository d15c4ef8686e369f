import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.js';
import { createFolder, listNames, signedInUser, uploadFile } from '../support/drive-factories.js';
import { createTestApp, DIALECT, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

describe('trash: POST /file-entries/delete and /restore', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const sizeOf = async (client: TestClient, hash: string): Promise<number> => (await client.get(`/api/v1/file-entries/${hash}`)).json().fileEntry.file_size;
  const del = (client: TestClient, body: object) => client.post('/api/v1/file-entries/delete', body);
  const stored = async (hash: string) => {
    const row = await servicesOf(t.app)
      .db.kysely.selectFrom('file_entries')
      .select(['disk_prefix', 'file_name'])
      .where('hash', '=', hash)
      .executeTakeFirstOrThrow();
    return `${row.disk_prefix}/${row.file_name}`;
  };
  const onDisk = async (key: string) => (await servicesOf(t.app).drive.disk.stat(key)) !== null;

  it('should require authentication', async () => {
    const client = new TestClient(t.app);
    expect((await client.post('/api/v1/file-entries/delete', { entryIds: ['x'] })).statusCode).toBe(401);
    expect((await client.post('/api/v1/file-entries/restore', { entryIds: ['x'] })).statusCode).toBe(401);
  });

  it('moves entries to trash with their subtree, and counts what was selected', async () => {
    const { user, client } = await signedInUser(t.app);
    const folder = await createFolder(client, 'Folder');
    await uploadFile(t.app, user, { name: 'inside.txt', parentId: folder });
    const loose = await uploadFile(t.app, user, { name: 'loose.txt' });

    const res = await del(client, { entryIds: [folder, loose.hash], paths: ['ignored'], deleteForever: false });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ action: 'trashed', count: 2, message: 'Moved 2 items to trash' });
    expect(await listNames(client, '')).toEqual([]);
    // The trash shows the tops of what was trashed, not every file inside.
    expect(await listNames(client, 'deletedOnly=true&orderBy=name&orderDir=asc')).toEqual(['Folder', 'loose.txt']);
    expect(await listNames(client, 'query=inside')).toEqual([]);
    expect((await del(client, { entryIds: [loose.hash] })).statusCode).toBe(404);
    expect((await del(client, { entryIds: [] })).statusCode).toBe(422);
    const one = await uploadFile(t.app, user, { name: 'one.txt' });
    expect((await del(client, { entryIds: [one.hash] })).json().message).toBe('Moved 1 item to trash');
  });

  it("answers the success line in the caller's language", async () => {
    const { user, client } = await signedInUser(t.app);
    await client.post('/api/v1/users/me?_method=PUT', { language: 'tr' });
    const one = await uploadFile(t.app, user, { name: 'bir.txt' });
    expect((await del(client, { entryIds: [one.hash] })).json().message).toBe('1 öğe çöp kutusuna taşındı');
  });

  it('restores a folder with the children that went to trash with it, and the sizes with them', async () => {
    const { user, client } = await signedInUser(t.app);
    const top = await createFolder(client, 'Top');
    const folder = await createFolder(client, 'Folder', top);
    await uploadFile(t.app, user, { name: 'a.txt', content: 'x'.repeat(10), parentId: folder });
    const earlier = await uploadFile(t.app, user, { name: 'earlier.txt', content: 'x'.repeat(5), parentId: folder });
    expect(await sizeOf(client, top)).toBe(15);

    await del(client, { entryIds: [earlier.hash] });
    expect(await sizeOf(client, top)).toBe(10);
    await del(client, { entryIds: [folder] });
    expect(await sizeOf(client, top)).toBe(0);
    expect(await listNames(client, 'deletedOnly=true&orderBy=name&orderDir=asc')).toEqual(['Folder', 'earlier.txt']);

    const res = await client.post('/api/v1/file-entries/restore', { entryIds: [folder] });
    expect(res.statusCode).toBe(200);
    expect(res.json().entries[0]).toMatchObject({ hash: folder, parent_id: top, deleted_at: null });
    expect(await listNames(client, `folderId=${folder}`)).toEqual(['a.txt']);
    expect(await sizeOf(client, top)).toBe(10);
    // What was trashed on its own before stays in the trash.
    expect(await listNames(client, 'deletedOnly=true')).toEqual(['earlier.txt']);
    await client.post('/api/v1/file-entries/restore', { entryIds: [earlier.hash] });
    expect(await sizeOf(client, top)).toBe(15);
  });

  it('restores a child whose folder is still in trash to the nearest live folder above, or the root', async () => {
    const { user, client } = await signedInUser(t.app);
    const keep = await createFolder(client, 'Keep');
    const gone = await createFolder(client, 'Gone', keep);
    const file = await uploadFile(t.app, user, { name: 'report.txt', content: 'x'.repeat(7), parentId: gone });
    await uploadFile(t.app, user, { name: 'report.txt', content: 'y', parentId: keep });
    await del(client, { entryIds: [gone] });

    const res = await client.post('/api/v1/file-entries/restore', { entryIds: [file.hash] });
    // Under Keep (Gone is still in trash), with a suffix as report.txt is taken there.
    expect(res.json().entries[0]).toMatchObject({ parent_id: keep, name: 'report (1).txt', deleted_at: null });
    expect(await sizeOf(client, keep)).toBe(8);
    // The trashed folder no longer holds it.
    expect((await client.get(`/api/v1/file-entries/${gone}`)).json().fileEntry.file_size).toBe(0);

    const rootGone = await createFolder(client, 'RootGone');
    const orphan = await uploadFile(t.app, user, { name: 'orphan.txt', parentId: rootGone });
    await del(client, { entryIds: [rootGone] });
    const restored = await client.post('/api/v1/file-entries/restore', { entryIds: [orphan.hash] });
    expect(restored.json().entries[0].parent_id).toBeNull();
  });

  it('deletes forever: rows go in the transaction and bytes after the commit', async () => {
    const { user, client } = await signedInUser(t.app);
    const parent = await createFolder(client, 'Parent');
    const folder = await createFolder(client, 'Doomed', parent);
    const a = await uploadFile(t.app, user, { name: 'a.txt', content: 'aaa', parentId: folder });
    const b = await uploadFile(t.app, user, { name: 'b.txt', content: 'bb', parentId: folder });
    const keys = [await stored(a.hash), await stored(b.hash)];
    expect(await Promise.all(keys.map(onDisk))).toEqual([true, true]);

    const res = await del(client, { entryIds: [folder], deleteForever: true });
    expect(res.json()).toEqual({ action: 'deleted', count: 1, message: 'Permanently deleted 1 item' });
    expect(await Promise.all(keys.map(onDisk))).toEqual([false, false]);
    expect((await client.get(`/api/v1/file-entries/${a.hash}`)).statusCode).toBe(404);
    expect(await sizeOf(client, parent)).toBe(0);
  });

  it('keeps the bytes (and the rows) when the delete transaction fails', async () => {
    const { user, client } = await signedInUser(t.app);
    const folder = await createFolder(client, 'Folder');
    const plain = await uploadFile(t.app, user, { name: 'plain.txt', content: 'keep me', parentId: folder });
    await uploadFile(t.app, user, { name: 'locked.txt', parentId: folder });
    const db = servicesOf(t.app).db.kysely;
    if (DIALECT === 'postgres') {
      await sql`create function refuse_locked() returns trigger language plpgsql as $$
        begin if old.name = 'locked.txt' then raise exception 'locked'; end if; return old; end $$`.execute(db);
      await sql`create trigger refuse_locked before delete on file_entries for each row execute function refuse_locked()`.execute(db);
    } else {
      await sql`create trigger refuse_locked before delete on file_entries when old.name = 'locked.txt' begin select raise(abort, 'locked'); end`.execute(db);
    }
    try {
      const res = await del(client, { entryIds: [folder], deleteForever: true });
      expect(res.statusCode).toBe(500);
      expect(await onDisk(await stored(plain.hash))).toBe(true);
      expect((await client.get(`/api/v1/file-entries/download?hashes=${plain.hash}`)).body).toBe('keep me');
    } finally {
      await sql`drop trigger refuse_locked ${sql.raw(DIALECT === 'postgres' ? 'on file_entries' : '')}`.execute(db);
    }
  });

  it('empties the trash: only trashed entries, bytes removed', async () => {
    const { user, client } = await signedInUser(t.app);
    const live = await uploadFile(t.app, user, { name: 'live.txt' });
    const folder = await createFolder(client, 'Old');
    const inside = await uploadFile(t.app, user, { name: 'inside.txt', parentId: folder });
    const loose = await uploadFile(t.app, user, { name: 'loose.txt' });
    const keys = [await stored(inside.hash), await stored(loose.hash)];
    await del(client, { entryIds: [folder, loose.hash] });

    const other = await signedInUser(t.app);
    const theirs = await uploadFile(t.app, other.user, { name: 'theirs.txt' });
    await del(other.client, { entryIds: [theirs.hash] });

    const res = await del(client, { entryIds: [], emptyTrash: true });
    expect(res.json()).toMatchObject({ action: 'emptied', message: 'Emptied trash' });
    expect(await listNames(client, 'deletedOnly=true')).toEqual([]);
    expect(await Promise.all(keys.map(onDisk))).toEqual([false, false]);
    expect(await listNames(client, '')).toEqual(['live.txt']);
    expect(await onDisk(await stored(live.hash))).toBe(true);
    expect(await listNames(other.client, 'deletedOnly=true')).toEqual(['theirs.txt']);
  });

  it("refuses another user's entries with 404 and changes nothing", async () => {
    const owner = await signedInUser(t.app);
    const file = await uploadFile(t.app, owner.user, { name: 'mine.txt' });
    const { client } = await signedInUser(t.app);
    expect((await del(client, { entryIds: [file.hash] })).statusCode).toBe(404);
    expect((await del(client, { entryIds: [file.hash], deleteForever: true })).statusCode).toBe(404);
    await del(owner.client, { entryIds: [file.hash] });
    expect((await client.post('/api/v1/file-entries/restore', { entryIds: [file.hash] })).statusCode).toBe(404);
    expect(await listNames(owner.client, 'deletedOnly=true')).toEqual(['mine.txt']);
  });
});
