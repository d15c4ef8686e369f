import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.js';
import { createFolder, signedInUser } from '../support/drive-factories.js';
import { servicesOf } from '../support/services-handle.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { multipartUpload } from '../uploads/support.js';
import { upload } from '../versions/support.js';
import { addMember, createWorkspace, workspaceRoles } from '../workspaces/support.js';

interface Record_ {
  action: string;
  entry_name: string;
  actor: { kind: string; id: number | null; name: string | null };
  address: string | null;
  details: Record<string, unknown>;
}

const activityOf = async (client: TestClient, hash: string): Promise<Record_[]> => {
  const res = await client.get(`/api/v1/file-entries/${hash}/activity`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: Record_[] }).data;
};
const actions = (records: Record_[]) => records.map((r) => r.action).reverse();

/** Activity (issue 35): one record per action on an entry, read by whoever may view it. */
describe('entry activity', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signedInUser>>;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInUser(t.app);
  });
  afterAll(() => t.close());

  it('records create, new version, rename, move, copy, trash, restore by the user who did them', async () => {
    const folder = await createFolder(owner.client, 'Reports');
    const file = (await upload(owner.client, 'a.txt', 'one')).json().fileEntry.id as string;
    await upload(owner.client, 'a.txt', 'two', { onConflict: 'replace' });
    expect((await owner.client.request('PUT', `/api/v1/file-entries/${file}`, { body: { name: 'b.txt' } })).statusCode).toBe(200);
    expect((await owner.client.post('/api/v1/file-entries/move', { entryIds: [file], destinationId: folder })).statusCode).toBe(200);
    expect((await owner.client.post('/api/v1/file-entries/delete', { entryIds: [file] })).statusCode).toBe(200);
    expect((await owner.client.post('/api/v1/file-entries/restore', { entryIds: [file] })).statusCode).toBe(200);

    const records = await activityOf(owner.client, file);
    expect(actions(records)).toEqual(['created', 'new-version', 'renamed', 'moved', 'trashed', 'restored']);
    expect(records.every((r) => r.actor.kind === 'user' && r.actor.id === owner.user.id && r.actor.name)).toBe(true);
    expect(records.find((r) => r.action === 'renamed')!.details).toEqual({ from: 'a.txt', to: 'b.txt' });
    expect(actions(await activityOf(owner.client, folder))).toEqual(['created']);
  });

  it('names a WebDAV client as such: a PUT that makes a file and one that replaces it', async () => {
    const token = (await owner.client.post('/api/v1/access-tokens', { name: 'dav', scopes: ['read', 'write'] })).json().plainTextToken as string;
    const authorization = `Basic ${Buffer.from(`${owner.user.email}:${token}`).toString('base64')}`;
    const put = (content: string) => t.app.inject({ method: 'PUT', url: '/dav/My%20drive/over-dav.txt', headers: { authorization }, payload: content });
    expect((await put('first')).statusCode).toBe(201);
    expect((await put('second')).statusCode).toBe(204);
    const listed = await owner.client.get('/api/v1/drive/file-entries?query=over-dav');
    const file = (listed.json().pagination.data as { id: string; name: string }[]).find((entry) => entry.name === 'over-dav.txt')!.id;
    const records = await activityOf(owner.client, file);
    expect(actions(records)).toEqual(['created', 'new-version']);
    expect(records.map((r) => r.actor)).toEqual([
      expect.objectContaining({ kind: 'webdav', id: owner.user.id }),
      expect.objectContaining({ kind: 'webdav', id: owner.user.id }),
    ]);
  });

  it('records shares, permission changes and unshares; a viewer reads them, a stranger gets 404, a guest 401', async () => {
    const file = (await upload(owner.client, 'shared.txt', 'x')).json().fileEntry.id as string;
    const viewer = await signedInUser(t.app);
    const shared = await owner.client.post('/api/v1/file-entries/shares', { entryIds: [file], emails: [viewer.user.email], permission: 'view' });
    expect(shared.statusCode, shared.body).toBe(200);
    expect(actions(await activityOf(viewer.client, file))).toEqual(['created', 'shared']);

    const stranger = await signedInUser(t.app);
    expect((await stranger.client.get(`/api/v1/file-entries/${file}/activity`)).statusCode).toBe(404);
    expect((await new TestClient(t.app).get(`/api/v1/file-entries/${file}/activity`)).statusCode).toBe(401);
    expect((await owner.client.get('/api/v1/file-entries/nothere/activity')).statusCode).toBe(404);
  });

  it('records a link made, opened and downloaded by a visitor with the anonymised address', async () => {
    const file = (await upload(owner.client, 'public.txt', 'hello')).json().fileEntry.id as string;
    const link = (await owner.client.post(`/api/v1/file-entries/${file}/share-links`, {})).json().link as { token: string };
    const visitor = new TestClient(t.app);
    visitor.remoteAddress = '203.0.113.77';
    expect((await visitor.get(`/api/v1/shared-links/${link.token}`)).statusCode).toBe(200);
    expect((await visitor.get(`/api/v1/shared-links/${link.token}/download?hashes=${file}`)).statusCode).toBe(200);
    const records = await activityOf(owner.client, file);
    expect(actions(records)).toEqual(['created', 'link-created', 'link-opened', 'link-downloaded']);
    const downloaded = records[0]!;
    expect(downloaded.actor).toEqual({ kind: 'visitor', id: null, name: null });
    expect(downloaded.address).toBe('203.0.113.0/24');
  });

  it("a workspace's activity is its admins': owner and admin 200, a viewer 403, an outsider 404, a guest 401", async () => {
    const workspaceId = await createWorkspace(owner.client, 'Team');
    const { body, headers } = multipartUpload({}, { name: 'team.txt', content: Buffer.from('t') });
    expect((await owner.client.request('POST', `/api/v1/file-entries?workspaceId=${workspaceId}`, { body, headers })).statusCode).toBe(200);
    const res = await owner.client.get(`/api/v1/workspace/${workspaceId}/activity`);
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { data: Record_[] }).data.map((r) => r.entry_name)).toContain('team.txt');
    const outsider = await signedInUser(t.app);
    expect((await outsider.client.get(`/api/v1/workspace/${workspaceId}/activity`)).statusCode).toBe(404);
    expect((await new TestClient(t.app).get(`/api/v1/workspace/${workspaceId}/activity`)).statusCode).toBe(401);
    const roles = await workspaceRoles(owner.client);
    const [admin, viewer] = [await signedInUser(t.app), await signedInUser(t.app)];
    await addMember(t.app, t.dataDir, owner.client, workspaceId, admin, roles.admin);
    await addMember(t.app, t.dataDir, owner.client, workspaceId, viewer, roles.viewer);
    expect((await admin.client.get(`/api/v1/workspace/${workspaceId}/activity`)).statusCode).toBe(200);
    expect((await viewer.client.get(`/api/v1/workspace/${workspaceId}/activity`)).statusCode).toBe(403);
  });

  it('the scheduler prunes records older than activity.keep_days', async () => {
    const file = (await upload(owner.client, 'old.txt', 'old')).json().fileEntry.id as string;
    const services = servicesOf(t.app);
    await services.settings.set({ 'activity.keep_days': 30 });
    const { activity } = services.activity;
    expect(await activity.prune()).toBe(0);
    expect(await activity.prune(new Date(Date.now() + 31 * 86_400_000))).toBeGreaterThan(0);
    expect(await activityOf(owner.client, file)).toEqual([]);
  });
});

/** Receipts (issue 35): the owner asked for them on the link; the bell shows the first download and every drop. */
describe('link receipts', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const bell = async (client: TestClient) =>
    ((await client.get('/api/v1/notifications')).json() as { pagination: { data: { type: string; data: { lines: { content: string }[] } }[] } }).pagination
      .data;

  it('a first download notifies the owner once; a link without receipts notifies nobody', async () => {
    const owner = await signedInUser(t.app);
    const file = (await upload(owner.client, 'report.pdf', 'pdf')).json().fileEntry.id as string;
    const quiet = (await owner.client.post(`/api/v1/file-entries/${file}/share-links`, {})).json().link as { token: string };
    expect((await new TestClient(t.app).get(`/api/v1/shared-links/${quiet.token}/download?hashes=${file}`)).statusCode).toBe(200);
    expect(await bell(owner.client)).toEqual([]);

    const made = await owner.client.post(`/api/v1/file-entries/${file}/share-links`, { notifyOwner: true });
    expect(made.json().link.notify_owner).toBe(true);
    const { token } = made.json().link as { token: string };
    for (const _ of [1, 2]) expect((await new TestClient(t.app).get(`/api/v1/shared-links/${token}/download?hashes=${file}`)).statusCode).toBe(200);
    const notes = await bell(owner.client);
    expect(notes.map((n) => n.type)).toEqual(['link-downloaded']);
    expect(notes[0]!.data.lines[0]!.content).toBe('Someone downloaded report.pdf through your link');
  });

  it('every file dropped notifies the owner, and is a drop in the folder’s activity with the address', async () => {
    const owner = await signedInUser(t.app);
    const folder = await createFolder(owner.client, 'Inbox');
    const { token } = (await owner.client.post(`/api/v1/file-entries/${folder}/share-links`, { fileDrop: true, notifyOwner: true })).json().link as {
      token: string;
    };
    for (const name of ['one.txt', 'two.txt']) {
      const visitor = new TestClient(t.app);
      visitor.remoteAddress = '2001:db8:1234:5678::1';
      const { body, headers } = multipartUpload({}, { name, content: Buffer.from(name) });
      expect((await visitor.request('POST', `/api/v1/shared-links/${token}/file-entries`, { body, headers })).statusCode).toBe(200);
    }
    expect((await bell(owner.client)).map((n) => n.data.lines[0]!.content)).toEqual([
      'Someone dropped two.txt into Inbox',
      'Someone dropped one.txt into Inbox',
    ]);
    const drops = (await activityOf(owner.client, folder)).filter((r) => r.action === 'dropped');
    expect(drops.map((r) => [r.details.name, r.actor.kind, r.address])).toEqual([
      ['two.txt', 'visitor', '2001:db8:1234::/48'],
      ['one.txt', 'visitor', '2001:db8:1234::/48'],
    ]);
  });
});
