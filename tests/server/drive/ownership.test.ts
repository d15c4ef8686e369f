import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolder, signedInUser, uploadFile } from '../support/drive-factories.js';
import { createUser, withoutPermissions } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

describe('who owns, who created, and what the caller may do', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('the database refuses to delete a user who still owns entries (nothing cascades silently)', async () => {
    const user = await createUser(servicesOf(t.app).db.kysely);
    await uploadFile(t.app, user, { name: 'kept.txt' });
    await expect(servicesOf(t.app).db.kysely.deleteFrom('users').where('id', '=', user.id).execute()).rejects.toThrow(/foreign key|still owns/i);
    expect(await servicesOf(t.app).db.kysely.selectFrom('file_entries').select('id').where('owner_id', '=', user.id).execute()).toHaveLength(1);
  });

  it('records the creator of folders and files', async () => {
    const { user, client } = await signedInUser(t.app);
    const folder = await createFolder(client, 'Mine');
    await uploadFile(t.app, user, { name: 'a.txt', parentId: folder });
    const rows = await servicesOf(t.app)
      .db.kysely.selectFrom('file_entries')
      .select(['name', 'owner_id', 'created_by'])
      .where('owner_id', '=', user.id)
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { name: 'Mine', owner_id: user.id, created_by: user.id },
      { name: 'a.txt', owner_id: user.id, created_by: user.id },
    ]);
  });

  it('listed and detailed entries carry the permissions the caller holds on them', async () => {
    const { user, client } = await signedInUser(t.app);
    const file = await uploadFile(t.app, user, { name: 'p.txt' });
    const all = ['files.view', 'files.create', 'files.update', 'files.delete', 'files.download', 'files.share'];
    expect((await client.get('/api/v1/drive/file-entries')).json().pagination.data[0].permissions).toEqual(all);
    expect((await client.get(`/api/v1/file-entries/${file.hash}`)).json().fileEntry.permissions).toEqual(all);

    await withoutPermissions(servicesOf(t.app).db.kysely, user.id, ['files.delete']);
    const listed = (await client.get('/api/v1/drive/file-entries')).json();
    expect(listed.pagination.data[0].permissions).toEqual(all.filter((p) => p !== 'files.delete'));
    expect(listed.folder.permissions).toEqual(all.filter((p) => p !== 'files.delete'));
  });

  it('a role without files.share may not share what it owns (the role is a ceiling)', async () => {
    const { user, client } = await signedInUser(t.app);
    await uploadFile(t.app, user, { name: 's.txt' });
    await withoutPermissions(servicesOf(t.app).db.kysely, user.id, ['files.share']);
    expect((await client.get('/api/v1/drive/file-entries')).json().pagination.data[0].permissions).not.toContain('files.share');
  });
});
