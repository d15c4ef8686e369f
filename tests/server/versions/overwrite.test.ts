import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolder, signedInUser } from '../support/drive-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { basic, contentOf, dav, davToken, upload, versionsOf } from './support.js';
import { servicesOf } from '../support/services-handle.js';

/** Every overwrite path keeps the old bytes as a version (issue 34); identical bytes make none. */
describe('versions: every overwrite makes one', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const used = async (client: Awaited<ReturnType<typeof signedInUser>>['client']) => (await client.get('/api/v1/user/space-usage')).json().used as number;
  const onDisk = async (prefix: string) => {
    for await (const object of servicesOf(t.app).drive.disk.list(prefix)) if (object) return true;
    return false;
  };

  it('an upload that replaces the file of its name ("Replace"), and "Keep both" beside it', async () => {
    const { user, client } = await signedInUser(t.app);
    const folder = await createFolder(client, 'Docs');
    const first = (await upload(client, 'a.txt', 'one', { parentId: folder })).json().fileEntry;
    const replaced = await upload(client, 'a.txt', 'two!', { parentId: folder, onConflict: 'replace' });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json().fileEntry.id).toBe(first.id);
    expect(await contentOf(client, first.id)).toBe('two!');
    const versions = await versionsOf(client, first.id);
    expect(versions).toHaveLength(1);
    expect(versions[0]).toMatchObject({ file_size: 3, created_by: { id: user.id } });
    expect((await client.get(versions[0]!.download_url)).body).toBe('one');
    // The same bytes again: no new version.
    await upload(client, 'a.txt', 'two!', { parentId: folder, onConflict: 'replace' });
    expect(await versionsOf(client, first.id)).toHaveLength(1);
    // Versions count towards the space, and the folder counts the current size only.
    expect(await used(client)).toBe(4 + 3);
    expect((await client.get(`/api/v1/file-entries/${folder}`)).json().fileEntry.file_size).toBe(4);
    // Keep both (the default) is a new file beside it.
    expect((await upload(client, 'a.txt', 'three', { parentId: folder })).json().fileEntry.name).toBe('a (1).txt');
    expect((await upload(client, 'a.txt', 'x', { onConflict: 'sideways' })).statusCode).toBe(422);
  });

  it('a WebDAV PUT over a file, a MOVE onto it, and identical bytes', async () => {
    const { user, client } = await signedInUser(t.app);
    const auth = basic(await davToken(t.app, user.id));
    expect((await dav(t.app, 'PUT', '/dav/My%20drive/n.txt', auth, 'v1')).statusCode).toBe(201);
    expect((await dav(t.app, 'PUT', '/dav/My%20drive/n.txt', auth, 'v2-')).statusCode).toBe(204);
    expect((await dav(t.app, 'PUT', '/dav/My%20drive/n.txt', auth, 'v2-')).statusCode).toBe(204);
    const hash = (await client.get('/api/v1/drive/file-entries')).json().pagination.data[0].id as string;
    expect((await versionsOf(client, hash)).map((v) => v.file_size)).toEqual([2]);
    // Editors save by writing a temporary file and moving it over the real one.
    expect((await dav(t.app, 'PUT', '/dav/My%20drive/n.tmp', auth, 'v3--')).statusCode).toBe(201);
    const moved = await dav(t.app, 'MOVE', '/dav/My%20drive/n.tmp', { ...auth, destination: '/dav/My%20drive/n.txt' });
    expect(moved.statusCode).toBe(204);
    const listed = (await client.get('/api/v1/drive/file-entries')).json().pagination.data as { id: string; name: string }[];
    expect(listed.map((e) => [e.name, e.id])).toEqual([['n.txt', hash]]);
    expect(await contentOf(client, hash)).toBe('v3--');
    const versions = await versionsOf(client, hash);
    expect(versions.map((v) => v.file_size)).toEqual([3, 2]);
    expect((await client.get(versions[0]!.download_url)).body).toBe('v2-');
    expect(await used(client)).toBe(4 + 3 + 2);
  });

  it('a document save keeps what was saved before', async () => {
    const { client } = await signedInUser(t.app);
    const doc = (await client.post('/api/v1/documents', { parentId: null, name: 'Plan' })).json().fileEntry as { id: string };
    const read = (await client.post('/api/v1/file-entries/read', { id: doc.id })).json() as { version: string };
    const content = [{ kind: 'paragraph', runs: [{ type: 'text', text: 'Second draft', fontAttributes: {} }] }];
    const saved = await client.post('/api/v1/file-entries/save', { id: doc.id, version: read.version, content });
    expect(saved.statusCode, saved.body).toBe(200);
    const versions = await versionsOf(client, doc.id);
    expect(versions).toHaveLength(1);
    expect(versions[0]!.sha256).toBe(read.version);
    // Saving the same content again writes the same bytes? Not necessarily (a .docx carries times), so only the count of real saves is checked.
  });

  it('restore makes the current bytes a version first; delete removes one with its bytes', async () => {
    const { user, client } = await signedInUser(t.app);
    const auth = basic(await davToken(t.app, user.id));
    for (const body of ['first', 'second', 'third']) await dav(t.app, 'PUT', '/dav/My%20drive/r.txt', auth, body);
    const hash = (await client.get('/api/v1/drive/file-entries')).json().pagination.data[0].id as string;
    const [second, first] = await versionsOf(client, hash);
    const restored = await client.post(`/api/v1/file-entries/${hash}/versions/${first!.id}/restore`);
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json().fileEntry.file_size).toBe(5);
    expect(await contentOf(client, hash)).toBe('first');
    const after = await versionsOf(client, hash);
    // "third" (replaced by the restore) is a version now; "first" is the content again.
    expect(after.map((v) => v.id).includes(first!.id)).toBe(false);
    expect(await Promise.all(after.map(async (v) => (await client.get(v.download_url)).body))).toEqual(['third', 'second']);
    const prefix = (await servicesOf(t.app).db.kysely.selectFrom('file_versions').select('disk_prefix').where('id', '=', second!.id).executeTakeFirstOrThrow())
      .disk_prefix;
    expect(await onDisk(prefix)).toBe(true);
    expect((await client.request('DELETE', `/api/v1/file-entries/${hash}/versions/${second!.id}`)).statusCode).toBe(200);
    expect(await onDisk(prefix)).toBe(false);
    expect((await client.request('DELETE', `/api/v1/file-entries/${hash}/versions/${second!.id}`)).statusCode).toBe(404);
    expect(await used(client)).toBe(5 + 5);
  });

  it('trash keeps the versions and restore brings them back; delete forever removes them and their bytes', async () => {
    const { user, client } = await signedInUser(t.app);
    const auth = basic(await davToken(t.app, user.id));
    for (const body of ['a', 'bb', 'ccc']) await dav(t.app, 'PUT', '/dav/My%20drive/t.txt', auth, body);
    const hash = (await client.get('/api/v1/drive/file-entries')).json().pagination.data[0].id as string;
    await client.post('/api/v1/file-entries/delete', { entryIds: [hash] });
    expect(await used(client)).toBe(3 + 2 + 1);
    // Versions of a trashed file are not shown until it is restored.
    expect((await client.get(`/api/v1/file-entries/${hash}/versions`)).statusCode).toBe(404);
    await client.post('/api/v1/file-entries/restore', { entryIds: [hash] });
    expect(await versionsOf(client, hash)).toHaveLength(2);
    const prefixes = (await servicesOf(t.app).db.kysely.selectFrom('file_versions').select('disk_prefix').execute()).map((r) => r.disk_prefix);
    const mine = [];
    for (const p of prefixes) if (await onDisk(p)) mine.push(p);
    await client.post('/api/v1/file-entries/delete', { entryIds: [hash], deleteForever: true });
    expect(await used(client)).toBe(0);
    const left = await servicesOf(t.app).db.kysely.selectFrom('file_versions').selectAll().where('owner_id', '=', user.id).execute();
    expect(left).toEqual([]);
    const stillOnDisk = [];
    for (const p of mine) if (await onDisk(p)) stillOnDisk.push(p);
    expect(stillOnDisk.length).toBe(mine.length - 2);
  });

  it('when space runs short the oldest versions go first, never the current file', async () => {
    const { user, client } = await signedInUser(t.app, { permissions: [{ name: 'files.create', restrictions: [{ name: 'max_space', value: 1000 }] }] });
    const auth = basic(await davToken(t.app, user.id));
    for (const digit of '123') await dav(t.app, 'PUT', '/dav/My%20drive/q.txt', auth, digit.repeat(300));
    const hash = (await client.get('/api/v1/drive/file-entries')).json().pagination.data[0].id as string;
    expect(await used(client)).toBe(900);
    // A fourth save would make 1200: the oldest version (the 1s) goes.
    await dav(t.app, 'PUT', '/dav/My%20drive/q.txt', auth, '4'.repeat(300));
    expect(await used(client)).toBe(900);
    const kept = await versionsOf(client, hash);
    expect(await Promise.all(kept.map(async (v) => (await client.get(v.download_url)).body[0]))).toEqual(['3', '2']);
    // A new file that fits only without versions takes their room, oldest first.
    expect((await dav(t.app, 'PUT', '/dav/My%20drive/big.txt', auth, 'b'.repeat(500))).statusCode).toBe(201);
    expect(await used(client)).toBe(300 + 500);
    expect(await versionsOf(client, hash)).toEqual([]);
    // Nothing left to drop: the current file is never dropped, the upload is refused.
    expect((await dav(t.app, 'PUT', '/dav/My%20drive/more.txt', auth, 'm'.repeat(300))).statusCode).toBeGreaterThanOrEqual(400);
    expect(await contentOf(client, hash)).toBe('4'.repeat(300));
    expect(await used(client)).toBe(800);
  });
});
