import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.js';
import { createFolder, listNames, signedInUser, uploadFile } from '../support/drive-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

describe('GET /drive/file-entries', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const setTimes = async (hash: string, times: { created_at?: string; updated_at?: string }) => {
    await servicesOf(t.app).db.kysely.updateTable('file_entries').set(times).where('hash', '=', hash).execute();
  };

  it('should require authentication', async () => {
    const res = await new TestClient(t.app).get('/api/v1/drive/file-entries');
    expect(res.statusCode).toBe(401);
  });

  it('lists the root by default, newest change first, with the folder and its permissions', async () => {
    const { user, client } = await signedInUser(t.app);
    const a = await uploadFile(t.app, user, { name: 'a.txt' });
    const b = await uploadFile(t.app, user, { name: 'b.txt' });
    const folder = await createFolder(client, 'Folder');
    await setTimes(a.hash, { updated_at: '2026-01-03T00:00:00.000Z' });
    await setTimes(b.hash, { updated_at: '2026-01-01T00:00:00.000Z' });
    await setTimes(folder, { updated_at: '2026-01-02T00:00:00.000Z' });

    const res = await client.get('/api/v1/drive/file-entries');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.pagination.data.map((e: { name: string }) => e.name)).toEqual(['a.txt', 'Folder', 'b.txt']);
    // Infinite scroll (no page number) is not counted; asking for a page number is.
    expect(body.pagination).toMatchObject({ current_page: 1, per_page: 50, total: null, last_page: null, next_cursor: null });
    const numbered = (await client.get('/api/v1/drive/file-entries?page=1')).json();
    expect(numbered.pagination).toMatchObject({ current_page: 1, per_page: 50, total: 3, last_page: 1, next_cursor: null });
    expect(body.folder).toEqual({
      hash: '0',
      name: '',
      permissions: ['files.view', 'files.create', 'files.update', 'files.delete', 'files.download', 'files.share'],
    });

    expect(await listNames(client, 'folderId=0&orderBy=updated_at&orderDir=asc')).toEqual(['b.txt', 'Folder', 'a.txt']);
  });

  it('lists a folder by hash, and 404s for a folder of another user', async () => {
    const { user, client } = await signedInUser(t.app);
    const folder = await createFolder(client, 'Docs');
    await uploadFile(t.app, user, { name: 'inside.txt', parentId: folder });
    await uploadFile(t.app, user, { name: 'outside.txt' });
    const res = await client.get(`/api/v1/drive/file-entries?folderId=${folder}`);
    expect(res.json().pagination.data.map((e: { name: string }) => e.name)).toEqual(['inside.txt']);
    expect(res.json().folder).toMatchObject({ hash: folder, name: 'Docs' });
    expect(res.json().folder.permissions).toContain('files.update');

    const other = await signedInUser(t.app);
    expect((await other.client.get(`/api/v1/drive/file-entries?folderId=${folder}`)).statusCode).toBe(404);
  });

  it('sorts by name with folders first, in both directions', async () => {
    const { user, client } = await signedInUser(t.app);
    await uploadFile(t.app, user, { name: 'beta.txt' });
    await uploadFile(t.app, user, { name: 'Alpha.txt' });
    await createFolder(client, 'zeta');
    await createFolder(client, 'Gamma');
    expect(await listNames(client, 'orderBy=name&orderDir=asc')).toEqual(['Gamma', 'zeta', 'Alpha.txt', 'beta.txt']);
    expect(await listNames(client, 'orderBy=name&orderDir=desc')).toEqual(['zeta', 'Gamma', 'beta.txt', 'Alpha.txt']);
  });

  it('sorts by size and by type', async () => {
    const { user, client } = await signedInUser(t.app);
    await uploadFile(t.app, user, { name: 'big.txt', content: 'x'.repeat(300) });
    await uploadFile(t.app, user, { name: 'small.txt', content: 'x' });
    await uploadFile(t.app, user, { name: 'dump.sql', content: 'select 1;' });
    expect(await listNames(client, 'orderBy=file_size&orderDir=desc')).toEqual(['big.txt', 'dump.sql', 'small.txt']);
    expect((await listNames(client, 'orderBy=type&orderDir=asc'))[0]).toBe('dump.sql');
  });

  it('pages with page/perPage and with next_cursor, without gaps or repeats', async () => {
    const { user, client } = await signedInUser(t.app);
    const names = Array.from({ length: 7 }, (_, i) => `file-${i}.txt`);
    for (const name of names) await uploadFile(t.app, user, { name });
    // Equal sort values: the id breaks ties, so paging stays stable.
    await servicesOf(t.app).db.kysely.updateTable('file_entries').set({ updated_at: '2026-02-01T00:00:00.000Z' }).where('owner_id', '=', user.id).execute();

    const page2 = (await client.get('/api/v1/drive/file-entries?perPage=3&page=2')).json().pagination;
    expect(page2).toMatchObject({ current_page: 2, per_page: 3, total: 7, last_page: 3 });

    const seen: string[] = [];
    let cursor: string | null = null;
    let first = true;
    while (first || cursor) {
      const url: string = `/api/v1/drive/file-entries?perPage=3&orderBy=name&orderDir=asc${cursor ? `&cursor=${cursor}` : ''}`;
      const pagination = (await client.get(url)).json().pagination;
      seen.push(...pagination.data.map((e: { name: string }) => e.name));
      cursor = pagination.next_cursor;
      if (!first) expect(pagination.total).toBeNull();
      first = false;
    }
    expect(seen).toEqual(names);

    const mismatched = (await client.get('/api/v1/drive/file-entries?perPage=3&orderBy=name&orderDir=asc')).json().pagination.next_cursor;
    const bad = await client.get(`/api/v1/drive/file-entries?perPage=3&orderBy=created_at&cursor=${mismatched}`);
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(['cursor']);
  });

  it('shows recent files newest upload first, and the SQL view .sql/.bak entries, with upload always allowed', async () => {
    const { user, client } = await signedInUser(t.app);
    const folder = await createFolder(client, 'Backups');
    await uploadFile(t.app, user, { name: 'old.sql', content: 'select 1;', createdAt: '2026-01-01T00:00:00.000Z' });
    await uploadFile(t.app, user, { name: 'nightly.bak', content: Buffer.from([0, 1, 2, 3]), parentId: folder, createdAt: '2026-01-03T00:00:00.000Z' });
    await uploadFile(t.app, user, { name: 'photo.txt', createdAt: '2026-01-02T00:00:00.000Z' });

    expect(await listNames(client, 'recentOnly=true')).toEqual(['nightly.bak', 'photo.txt', 'old.sql']);
    const sql = (await client.get('/api/v1/drive/file-entries?sqlOnly=true')).json();
    expect(sql.pagination.data.map((e: { name: string }) => e.name)).toEqual(['nightly.bak', 'old.sql']);
    expect(sql.pagination.data.map((e: { type: string }) => e.type)).toEqual(['sql', 'sql']);
    expect(sql.folder.permissions).toContain('files.update');
  });

  it('the SQL view allows upload even to users whose role lacks files.update', async () => {
    const { user, client } = await signedInUser(t.app);
    const db = servicesOf(t.app).db.kysely;
    const permission = await db.selectFrom('permissions').select('id').where('name', '=', 'files.update').executeTakeFirstOrThrow();
    const role = await db.selectFrom('roles').select('id').where('name', '=', 'users').executeTakeFirstOrThrow();
    const restricted = await db
      .insertInto('roles')
      .values({ name: `no-update-${user.id}`, type: 'sitewide', created_at: new Date().toISOString(), updated_at: new Date().toISOString() })
      .returning('id')
      .executeTakeFirstOrThrow();
    const grants = await db.selectFrom('role_permissions').selectAll().where('role_id', '=', role.id).where('permission_id', '!=', permission.id).execute();
    for (const grant of grants)
      await db
        .insertInto('role_permissions')
        .values({ ...grant, role_id: restricted.id })
        .execute();
    await db.updateTable('user_roles').set({ role_id: restricted.id }).where('user_id', '=', user.id).execute();

    const root = (await client.get('/api/v1/drive/file-entries')).json();
    expect(root.folder.permissions).not.toContain('files.update');
    const sql = (await client.get('/api/v1/drive/file-entries?sqlOnly=1')).json();
    expect(sql.folder.permissions).toContain('files.update');
  });

  it('lists starred entries, and nothing as shared yet', async () => {
    const { user, client } = await signedInUser(t.app);
    const a = await uploadFile(t.app, user, { name: 'keep.txt' });
    await uploadFile(t.app, user, { name: 'other.txt' });
    await client.post('/api/v1/file-entries/star', { entryIds: [a.hash] });
    const starred = (await client.get('/api/v1/drive/file-entries?starredOnly=true')).json();
    expect(starred.pagination.data.map((e: { name: string; is_starred: boolean }) => [e.name, e.is_starred])).toEqual([['keep.txt', true]]);
    expect(starred.folder).toBeNull();
    expect((await client.get('/api/v1/drive/file-entries?sharedOnly=true&page=1')).json().pagination).toMatchObject({ data: [], total: 0 });
  });

  it('finds entries by part of the name, in any case, across the drive or inside a folder', async () => {
    const { user, client } = await signedInUser(t.app);
    const folder = await createFolder(client, 'Reports');
    await uploadFile(t.app, user, { name: 'Quarterly-REPORT-2026.txt', parentId: folder });
    await uploadFile(t.app, user, { name: 'annual report.txt' });
    await uploadFile(t.app, user, { name: 'holiday.txt' });
    await uploadFile(t.app, user, { name: '50%_off.txt' });
    const other = await signedInUser(t.app);
    await uploadFile(t.app, other.user, { name: 'someone else report.txt' });

    expect((await listNames(client, 'query=report&orderBy=name&orderDir=asc')).sort()).toEqual(
      ['Quarterly-REPORT-2026.txt', 'Reports', 'annual report.txt'].sort(),
    );
    expect(await listNames(client, 'query=RTERLY')).toEqual(['Quarterly-REPORT-2026.txt']);
    expect(await listNames(client, 'query=al%20rep')).toEqual(['annual report.txt']);
    // Short queries (below a trigram) still work, and LIKE wildcards are matched literally.
    expect(await listNames(client, 'query=ol')).toEqual(['holiday.txt']);
    expect(await listNames(client, 'query=%25_')).toEqual(['50%_off.txt']);
    expect(await listNames(client, `query=report&folderId=${folder}`)).toEqual(['Quarterly-REPORT-2026.txt']);
    expect(await listNames(client, 'query=nothing-like-this')).toEqual([]);
  });

  it('follows renames and deletes in the search index', async () => {
    const { user, client } = await signedInUser(t.app);
    const file = await uploadFile(t.app, user, { name: 'draft-notes.txt' });
    await client.request('PUT', `/api/v1/file-entries/${file.hash}`, { body: { name: 'final-minutes.txt' } });
    expect(await listNames(client, 'query=notes')).toEqual([]);
    expect(await listNames(client, 'query=minutes')).toEqual(['final-minutes.txt']);
    await client.post('/api/v1/file-entries/delete', { entryIds: [file.hash], deleteForever: true });
    expect(await listNames(client, 'query=minutes')).toEqual([]);
  });

  it('filters by type, modified dates and owner', async () => {
    const { user, client } = await signedInUser(t.app);
    const a = await uploadFile(t.app, user, { name: 'jan.txt' });
    const b = await uploadFile(t.app, user, { name: 'feb.sql', content: 'select 2;' });
    const folder = await createFolder(client, 'Stuff');
    await setTimes(a.hash, { updated_at: '2026-01-15T10:00:00.000Z' });
    await setTimes(b.hash, { updated_at: '2026-02-15T10:00:00.000Z' });
    await setTimes(folder, { updated_at: '2026-03-15T10:00:00.000Z' });

    expect(await listNames(client, 'type=folder')).toEqual(['Stuff']);
    expect(await listNames(client, 'type=text')).toEqual(['jan.txt']);
    expect(await listNames(client, 'modifiedFrom=2026-02-01&modifiedTo=2026-02-15')).toEqual(['feb.sql']);
    expect(await listNames(client, 'modifiedTo=2026-01-15')).toEqual(['jan.txt']);
    expect(await listNames(client, 'owner=me&orderBy=name&orderDir=asc')).toEqual(['Stuff', 'feb.sql', 'jan.txt']);
    expect(await listNames(client, 'owner=others')).toEqual([]);
    const bad = await client.get('/api/v1/drive/file-entries?type=movie');
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(['type']);
  });
});
