import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowIso } from '../../../server/lib/time.js';
import { OfflineManifests, type OfflineManifest } from '../../../server/modules/drive/offline-manifest.js';
import { TestClient } from '../support/client.js';
import { actorFor, createFolder, pngBytes, signedInUser, uploadFile } from '../support/drive-factories.js';
import { withoutPermissions, type CreatedUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

describe('GET /file-entries/:id/offline-manifest', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const url = (id: string) => `/api/v1/file-entries/${id}/offline-manifest`;
  const manifestOf = async (client: TestClient, id: string): Promise<{ body: OfflineManifest; etag: string }> => {
    const res = await client.get(url(id));
    expect(res.statusCode, res.body).toBe(200);
    return { body: res.json(), etag: res.headers.etag as string };
  };
  const names = (manifest: OfflineManifest) => manifest.entries.map((e) => e.name).sort();

  /** A folder "Trip" holding a file, an image, a subfolder with a file, and a trashed file. */
  async function trip(user: CreatedUser, client: TestClient) {
    const folder = await createFolder(client, 'Trip');
    const sub = await createFolder(client, 'Maps', folder);
    const note = await uploadFile(t.app, user, { name: 'note.txt', content: 'hello offline', parentId: folder });
    const image = await uploadFile(t.app, user, { name: 'photo.png', content: await pngBytes(20, 10), parentId: folder });
    const map = await uploadFile(t.app, user, { name: 'map.txt', content: 'north', parentId: sub });
    const gone = await uploadFile(t.app, user, { name: 'gone.txt', parentId: folder });
    expect((await client.post('/api/v1/file-entries/delete', { entryIds: [gone.hash] })).statusCode).toBe(200);
    return { folder, sub, note, image, map, gone };
  }

  it('answers 401 to a guest, 404 to a stranger, for an unknown id and a trashed folder, 403 without files.view', async () => {
    const { user, client } = await signedInUser(t.app);
    const { folder } = await trip(user, client);
    expect((await new TestClient(t.app).get(url(folder))).statusCode).toBe(401);
    const stranger = await signedInUser(t.app);
    expect((await stranger.client.get(url(folder))).statusCode).toBe(404);
    expect((await client.get(url('nosuchentry'))).statusCode).toBe(404);

    const trashed = await createFolder(client, 'Old');
    await uploadFile(t.app, user, { name: 'inside.txt', parentId: trashed });
    await client.post('/api/v1/file-entries/delete', { entryIds: [trashed] });
    expect((await client.get(url(trashed))).statusCode).toBe(404);

    await withoutPermissions(servicesOf(t.app).db.kysely, user.id, ['files.view']);
    expect((await client.get(url(folder))).statusCode).toBe(403);
  });

  it('lists the whole live subtree, parents first, in the drive API’s ids and shapes', async () => {
    const { user, client } = await signedInUser(t.app);
    const { folder, sub, note, image, map } = await trip(user, client);
    const { body, etag } = await manifestOf(client, folder);
    expect(etag).toMatch(/^W\/".+"$/);

    expect(body.root).toMatchObject({ id: folder, parentId: null, type: 'folder', name: 'Trip', sha256: null, canDownload: false, hasThumbnail: false });
    expect(names(body)).toEqual(['Maps', 'map.txt', 'note.txt', 'photo.png']);
    const byName = new Map(body.entries.map((e) => [e.name, e]));
    expect(byName.get('note.txt')).toEqual({
      id: note.hash,
      parentId: folder,
      type: 'file',
      name: 'note.txt',
      mime: 'text/plain',
      size: 'hello offline'.length,
      sha256: createHash('sha256').update('hello offline').digest('hex'),
      updatedAt: note.updated_at,
      canDownload: true,
      hasThumbnail: false,
    });
    expect(byName.get('photo.png')).toMatchObject({ id: image.hash, hasThumbnail: true, canDownload: true, mime: 'image/png' });
    expect(byName.get('Maps')).toMatchObject({ id: sub, parentId: folder, type: 'folder', sha256: null, size: 'north'.length });
    expect(byName.get('map.txt')).toMatchObject({ id: map.hash, parentId: sub });
    // Parents before their children, so a device can write them in order.
    const order = body.entries.map((e) => e.id);
    expect(order.indexOf(sub)).toBeLessThan(order.indexOf(map.hash));
    // The same shapes the listing presents: ids are hashes, sizes and times as it shows them.
    const listed = (await client.get(`/api/v1/drive/file-entries?folderId=${folder}`)).json().pagination.data as {
      id: string;
      file_size: number;
      updated_at: string;
    }[];
    for (const row of listed)
      expect(byName.get(body.entries.find((e) => e.id === row.id)!.name)).toMatchObject({ size: row.file_size, updatedAt: row.updated_at });
  });

  it('answers a file alone, with its parent’s id', async () => {
    const { user, client } = await signedInUser(t.app);
    const { folder, note } = await trip(user, client);
    const { body } = await manifestOf(client, note.hash);
    expect(body.entries).toEqual([]);
    expect(body.root).toMatchObject({ id: note.hash, parentId: folder, type: 'file', canDownload: true });
  });

  it('follows shares with people: the shared folder only, download as the policy allows', async () => {
    const owner = await signedInUser(t.app);
    const { folder, sub } = await trip(owner.user, owner.client);
    const viewer = await signedInUser(t.app);
    const shared = await owner.client.post('/api/v1/file-entries/shares', { entryIds: [sub], emails: [viewer.user.email], permission: 'view' });
    expect(shared.statusCode, shared.body).toBe(200);

    // Shared a subfolder: the folder above stays unknown to them.
    expect((await viewer.client.get(url(folder))).statusCode).toBe(404);
    const { body } = await manifestOf(viewer.client, sub);
    expect(body.root).toMatchObject({ id: sub, parentId: folder });
    // A view share gives view and download (access/grants.repository.ts SHARE_ACTIONS).
    expect(body.entries).toEqual([expect.objectContaining({ name: 'map.txt', canDownload: true })]);

    // A site role without files.download is a ceiling no share lifts: the names travel, the bytes may not.
    await withoutPermissions(servicesOf(t.app).db.kysely, viewer.user.id, ['files.download']);
    const capped = await manifestOf(viewer.client, sub);
    expect(capped.body.entries).toEqual([expect.objectContaining({ name: 'map.txt', canDownload: false })]);
  });

  it('answers 304 to the tag it gave while nothing in the subtree changed, writes elsewhere included', async () => {
    const { user, client } = await signedInUser(t.app);
    const { folder } = await trip(user, client);
    // The uploads' background work (text extraction) writes too, and may change the tag: it is done first.
    await servicesOf(t.app).jobs.idle();
    const { etag } = await manifestOf(client, folder);

    const before = servicesOf(t.app).db.counter.statements;
    const again = await client.get(url(folder), { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    // Nothing was written since the tag was made: the 304 costs no query at all, where building costs some.
    expect(servicesOf(t.app).db.counter.statements - before).toBe(0);
    const building = servicesOf(t.app).db.counter.statements;
    expect((await client.get(url(folder))).statusCode).toBe(200);
    expect(servicesOf(t.app).db.counter.statements - building).toBeGreaterThan(0);

    // A write outside the subtree moves the data version, but not the manifest's tag.
    await uploadFile(t.app, user, { name: 'elsewhere.txt' });
    const other = await signedInUser(t.app);
    await createFolder(other.client, 'Not mine');
    expect((await client.get(url(folder), { 'if-none-match': `"other", ${etag}` })).statusCode).toBe(304);
    expect((await client.get(url(folder), { 'if-none-match': 'W/"m.stale"' })).statusCode).toBe(200);
  });

  it('gives a new tag after any write in the subtree, and drops what left it', async () => {
    const { user, client } = await signedInUser(t.app);
    const { folder, sub, note, image, map } = await trip(user, client);
    let { etag } = await manifestOf(client, folder);
    const changed = async (write: () => Promise<unknown>) => {
      await write();
      const res = await client.get(url(folder), { 'if-none-match': etag });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers.etag).not.toBe(etag);
      etag = res.headers.etag as string;
      return res.json() as OfflineManifest;
    };

    const renamed = await changed(() => client.request('PUT', `/api/v1/file-entries/${note.hash}`, { body: { name: 'notes.txt' } }));
    expect(names(renamed)).toContain('notes.txt');

    const added = await changed(() => uploadFile(t.app, user, { name: 'deep.txt', parentId: sub }));
    expect(added.entries.find((e) => e.name === 'deep.txt')).toMatchObject({ parentId: sub });

    const described = await changed(() => client.request('PUT', `/api/v1/file-entries/${map.hash}`, { body: { description: 'the north' } }));
    expect(described.entries.find((e) => e.id === map.hash)!.updatedAt).not.toBe(map.updated_at);

    const trashed = await changed(() => client.post('/api/v1/file-entries/delete', { entryIds: [image.hash] }));
    expect(trashed.entries.map((e) => e.id)).not.toContain(image.hash);

    const forever = await changed(() => client.post('/api/v1/file-entries/delete', { entryIds: [map.hash], deleteForever: true }));
    expect(forever.entries.map((e) => e.id)).not.toContain(map.hash);

    const elsewhere = await createFolder(client, 'Elsewhere');
    const moved = await changed(() => client.post('/api/v1/file-entries/move', { entryIds: [sub], destinationId: elsewhere }));
    expect(names(moved)).toEqual(['notes.txt']);

    // Losing the download action changes what the device may keep, so the tag moves too.
    const capped = await changed(() => withoutPermissions(servicesOf(t.app).db.kysely, user.id, ['files.download']));
    expect(capped.entries.every((e) => !e.canDownload)).toBe(true);
  });

  it('refuses a subtree above the cap with a clear error', async () => {
    const { user, client } = await signedInUser(t.app);
    const { folder, sub } = await trip(user, client);
    const small = new OfflineManifests(servicesOf(t.app).db.kysely, servicesOf(t.app).db.version, 3);
    const actor = await actorFor(t.app, user);
    await expect(small.build(actor, folder)).rejects.toMatchObject({
      statusCode: 422,
      message: 'This folder holds more than 3 items, too many to make available offline at once. Make its folders available offline one by one.',
    });
    expect((await small.build(actor, sub)).entries).toHaveLength(1);
  });

  it('sends a folder of 10,000 entries in one response from a constant number of queries, to its owner and to a share', async () => {
    const { user, client } = await signedInUser(t.app);
    const root = await createFolder(client, 'Big');
    const db = servicesOf(t.app).db.kysely;
    const rootRow = await db.selectFrom('file_entries').selectAll().where('hash', '=', root).executeTakeFirstOrThrow();
    const now = nowIso();
    const row = (name: string, parentId: number, type: string, i: number) => ({
      hash: `big${user.id}x${name}`,
      name,
      type,
      mime: type === 'folder' ? null : 'text/plain',
      file_size: type === 'folder' ? 0 : i,
      parent_id: parentId,
      sha256: type === 'folder' ? null : createHash('sha256').update(name).digest('hex'),
      owner_id: user.id,
      created_by: user.id,
      workspace_id: null,
      created_at: now,
      updated_at: now,
    });
    // 100 folders of 99 files each: a query per folder would show in the count below.
    const folders = await db
      .insertInto('file_entries')
      .values(Array.from({ length: 100 }, (_, i) => row(`f${i}`, rootRow.id, 'folder', i)))
      .returning('id')
      .execute();
    for (const [i, folderRow] of folders.entries()) {
      await db
        .insertInto('file_entries')
        .values(Array.from({ length: 99 }, (_, j) => row(`f${i}-${j}.txt`, folderRow.id, 'text', j)))
        .execute();
    }
    await db
      .updateTable('file_entries')
      .set({ path: sql<string>`${`${rootRow.path}/`} || cast(id as text)` })
      .where('parent_id', '=', rootRow.id)
      .execute();
    await db
      .updateTable('file_entries')
      .set({ path: sql<string>`(select p.path from file_entries as p where p.id = file_entries.parent_id) || '/' || cast(id as text)` })
      .where(
        'parent_id',
        'in',
        folders.map((f) => f.id),
      )
      .execute();

    // Only the request's own statements: background work earlier uploads queued (text extraction) is done first.
    await servicesOf(t.app).jobs.idle();
    const before = servicesOf(t.app).db.counter.statements;
    const { body } = await manifestOf(client, root);
    const statements = servicesOf(t.app).db.counter.statements - before;
    expect(body.entries).toHaveLength(10_000);
    expect(body.entries.filter((e) => e.type === 'folder')).toHaveLength(100);
    expect(body.entries.every((e) => e.parentId !== null)).toBe(true);
    expect(statements).toBeLessThanOrEqual(8);

    const recipient = await signedInUser(t.app);
    expect((await client.post('/api/v1/file-entries/shares', { entryIds: [root], emails: [recipient.user.email], permission: 'view' })).statusCode).toBe(200);
    const shared = await manifestOf(recipient.client, root);
    expect(shared.body.entries).toHaveLength(10_000);
    expect(shared.body.entries.filter((e) => e.canDownload)).toHaveLength(9_900);
  }, 60_000);
});
