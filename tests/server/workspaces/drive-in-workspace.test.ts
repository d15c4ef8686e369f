import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolder, listNames, signedInUser } from '../support/drive-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { multipartUpload } from '../uploads/support.js';
import { addMember, createWorkspace, workspaceRoles } from './support.js';
import type { TestClient } from '../support/client.js';
import { servicesOf } from '../support/services-handle.js';

/** The drive inside a workspace: members reach its entries through their role; the owner holds and pays for them. */
describe('the drive in a workspace', () => {
  let t: TestApp;
  let roles: Awaited<ReturnType<typeof workspaceRoles>>;

  beforeAll(async () => {
    t = await createTestApp();
    roles = await workspaceRoles((await signedInUser(t.app)).client);
  });
  afterAll(() => t.close());

  const upload = async (client: TestClient, workspaceId: number, name: string, content = 'hello workspace') => {
    const { body, headers } = multipartUpload({ parentId: '0' }, { name, content: Buffer.from(content) });
    return client.request('POST', `/api/v1/file-entries?workspaceId=${workspaceId}`, { body, headers });
  };

  async function team() {
    const owner = await signedInUser(t.app);
    const editor = await signedInUser(t.app);
    const viewer = await signedInUser(t.app);
    const id = await createWorkspace(owner.client);
    const editorMemberId = await addMember(t.app, t.dataDir, owner.client, id, editor, roles.editor);
    await addMember(t.app, t.dataDir, owner.client, id, viewer, roles.viewer);
    return { owner, editor, viewer, id, editorMemberId };
  }

  it("shows every member the workspace's entries and keeps them apart from personal spaces", async () => {
    const { owner, editor, viewer, id } = await team();
    const uploaded = await upload(editor.client, id, 'plan.txt');
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    await createFolder(editor.client, 'Personal notes');

    for (const { client } of [owner, editor, viewer]) expect(await listNames(client, `workspaceId=${id}`)).toEqual(['plan.txt']);
    expect(await listNames(editor.client, '')).toEqual(['Personal notes']);
    expect(await listNames(owner.client, '')).toEqual([]);
    const stranger = await signedInUser(t.app);
    const refused = await stranger.client.get(`/api/v1/drive/file-entries?workspaceId=${id}`);
    expect(refused.statusCode).toBe(404);
    expect(refused.json().message).toBe('This workspace does not exist.');
  });

  it('holds entries in the owner’s name and charges the owner, remembering who uploaded', async () => {
    const { owner, editor, id } = await team();
    const entry = (await upload(editor.client, id, 'budget.csv', 'x'.repeat(1000))).json().fileEntry;
    expect(entry).toMatchObject({ owner_id: owner.user.id, workspace_id: id });
    const row = await servicesOf(t.app)
      .db.kysely.selectFrom('file_entries')
      .select(['owner_id', 'created_by'])
      .where('hash', '=', entry.hash)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ owner_id: owner.user.id, created_by: editor.user.id });
    expect((await owner.client.get('/api/v1/user/space-usage')).json().used).toBe(1000);
    expect((await editor.client.get('/api/v1/user/space-usage')).json().used).toBe(0);
  });

  it('lets each member do what their role allows, and no more', async () => {
    const { editor, viewer, id } = await team();
    const hash = (await upload(editor.client, id, 'shared.txt')).json().fileEntry.hash;

    expect((await viewer.client.get(`/api/v1/file-entries/${hash}?workspaceId=${id}`)).statusCode).toBe(200);
    expect((await viewer.client.get(`/api/v1/file-entries/download?hashes=${hash}&workspaceId=${id}`)).statusCode).toBe(200);
    expect((await upload(viewer.client, id, 'nope.txt')).statusCode).toBe(403);
    expect((await viewer.client.post(`/api/v1/folders?workspaceId=${id}`, { name: 'Nope', parentId: null })).statusCode).toBe(403);
    expect((await viewer.client.post(`/api/v1/file-entries/delete?workspaceId=${id}`, { entryIds: [hash], deleteForever: false })).statusCode).toBe(403);
    expect((await viewer.client.request('PUT', `/api/v1/file-entries/${hash}?workspaceId=${id}`, { body: { name: 'renamed.txt' } })).statusCode).toBe(403);

    const listed = (await viewer.client.get(`/api/v1/drive/file-entries?workspaceId=${id}`)).json().pagination.data[0];
    expect(listed.permissions).toEqual(['files.view', 'files.download']);

    expect((await editor.client.request('PUT', `/api/v1/file-entries/${hash}?workspaceId=${id}`, { body: { name: 'renamed.txt' } })).statusCode).toBe(200);
    expect((await editor.client.post(`/api/v1/file-entries/delete?workspaceId=${id}`, { entryIds: [hash], deleteForever: false })).statusCode).toBe(200);
  });

  it('takes a demotion into account at once', async () => {
    const { owner, editor, id, editorMemberId } = await team();
    expect((await upload(editor.client, id, 'before.txt')).statusCode).toBe(200);
    await owner.client.post(`/api/v1/workspace/${id}/member/${editorMemberId}/change-role`, { roleId: roles.viewer });
    expect((await upload(editor.client, id, 'after.txt')).statusCode).toBe(403);
  });

  it("keeps a leaving member's files in the workspace, for the owner", async () => {
    const { owner, editor, id, editorMemberId } = await team();
    const hash = (await upload(editor.client, id, 'handover.txt')).json().fileEntry.hash;
    await editor.client.request('DELETE', `/api/v1/workspace/${id}/member/${editorMemberId}`);
    expect((await editor.client.get(`/api/v1/file-entries/${hash}`)).statusCode).toBe(404);
    expect(await listNames(owner.client, `workspaceId=${id}`)).toEqual(['handover.txt']);
  });

  it('refuses to move entries between spaces (copying is how they cross)', async () => {
    const { editor, id } = await team();
    const personal = await createFolder(editor.client, 'Mine');
    const target = (await editor.client.post(`/api/v1/folders?workspaceId=${id}`, { name: 'Team folder', parentId: null })).json().folder.hash;
    const moved = await editor.client.post(`/api/v1/file-entries/move?workspaceId=${id}`, { entryIds: [personal], destinationId: target });
    expect(moved.statusCode).toBe(422);
    expect(moved.json().errors.destinationId).toEqual(['Items can only be moved within the same workspace. Copy them instead.']);
    const copied = await editor.client.post(`/api/v1/file-entries/duplicate?workspaceId=${id}`, { entryIds: [personal], destinationId: target });
    expect(copied.statusCode, copied.body).toBe(200);
    expect(copied.json().entries[0]).toMatchObject({ name: 'Mine', workspace_id: id });
  });

  it("sends a deleted workspace's entries to its owner's trash, whence they restore", async () => {
    const { owner, editor, id } = await team();
    await upload(editor.client, id, 'keep.txt');
    const folder = (await editor.client.post(`/api/v1/folders?workspaceId=${id}`, { name: 'Reports', parentId: null })).json().folder.hash;
    await owner.client.request('DELETE', `/api/v1/workspace/${id}`);

    expect((await editor.client.get(`/api/v1/drive/file-entries?workspaceId=${id}`)).statusCode).toBe(404);
    expect((await listNames(owner.client, 'deletedOnly=true')).sort()).toEqual(['Reports', 'keep.txt']);
    expect((await owner.client.post('/api/v1/file-entries/restore', { entryIds: [folder] })).statusCode).toBe(200);
    expect(await listNames(owner.client, '')).toEqual(['Reports']);
  });
});
