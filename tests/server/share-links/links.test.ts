import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactUrl } from '../../../server/plugins/request-log.js';
import { anonymiseAddress } from '../../../server/modules/share-links/address.js';
import { TestClient } from '../support/client.js';
import { createFolder, signedInUser, uploadFile } from '../support/drive-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { addMember, createWorkspace, workspaceRoles } from '../workspaces/support.js';
import { guest, linkPath, makeLink, type Person } from './support.js';
import { servicesOf } from '../support/services-handle.js';

describe("share links, the owner's side", () => {
  let t: TestApp;
  let owner: Person;
  let viewer: Person;
  let stranger: Person;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInUser(t.app);
    viewer = await signedInUser(t.app);
    stranger = await signedInUser(t.app);
  });
  afterAll(() => t.close());

  /** A folder of the owner's, shared with `viewer` (who may see it but not pass it on), with one link. */
  async function fixture() {
    const folder = await createFolder(owner.client, `Shared ${Math.random().toString(36).slice(2, 8)}`);
    const file = (await uploadFile(t.app, owner.user, { name: 'a.txt', content: 'abc', parentId: folder })).hash;
    await owner.client.post('/api/v1/file-entries/shares', { entryIds: [folder], emails: [viewer.user.email], permission: 'view' });
    const link = await makeLink(owner, folder);
    return { folder, file, link };
  }

  type Request = readonly [method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body: unknown];
  const calls: { name: string; call: (fx: Fixture) => Request }[] = [
    { name: 'list', call: (fx: Fixture) => ['GET', `/api/v1/file-entries/${fx.folder}/share-links`, undefined] },
    { name: 'create', call: (fx: Fixture) => ['POST', `/api/v1/file-entries/${fx.folder}/share-links`, {}] },
    { name: 'revoke all', call: (fx: Fixture) => ['DELETE', `/api/v1/file-entries/${fx.folder}/share-links`, undefined] },
    { name: 'update', call: (fx: Fixture) => ['PUT', `/api/v1/share-links/${fx.link.id}`, { allowDownload: false }] },
    { name: 'delete', call: (fx: Fixture) => ['DELETE', `/api/v1/share-links/${fx.link.id}`, undefined] },
    { name: 'access log', call: (fx: Fixture) => ['GET', `/api/v1/share-links/${fx.link.id}/events`, undefined] },
  ];
  type Fixture = Awaited<ReturnType<typeof fixture>>;
  const send = (client: TestClient, [method, url, body]: Request) => client.request(method, url, body === undefined ? {} : { body });

  it.each(calls)('$name: guest 401, stranger 404, a viewer of the share 403, the owner 200', async ({ call }) => {
    expect((await send(new TestClient(t.app), call(await fixture()))).statusCode).toBe(401);
    const strangers = await send(stranger.client, call(await fixture()));
    expect(strangers.statusCode).toBe(404);
    expect((await send(viewer.client, call(await fixture()))).statusCode).toBe(403);
    const owners = await send(owner.client, call(await fixture()));
    expect(owners.statusCode, owners.body).toBe(200);
  });

  it('keeps several links per entry, each with its own settings, and revokes them all at once', async () => {
    const { folder, link } = await fixture();
    const second = await makeLink(owner, folder, { password: 'pass word', maxDownloads: 5, allowDownload: false });
    expect(second).toMatchObject({ has_password: true, max_downloads: 5, allow_download: false, download_count: 0 });
    expect(JSON.stringify(second)).not.toContain('pass word');
    const listed = (await owner.client.get(`/api/v1/file-entries/${folder}/share-links`)).json().links;
    expect(listed.map((l: { id: number }) => l.id)).toEqual([link.id, second.id]);
    const stored = await servicesOf(t.app).db.kysely.selectFrom('share_links').select('password_hash').where('id', '=', second.id).executeTakeFirstOrThrow();
    expect(stored.password_hash).toMatch(/^\$argon2id\$/);

    const revoked = await owner.client.request('DELETE', `/api/v1/file-entries/${folder}/share-links`);
    expect(revoked.json().message).toBe('Links removed');
    expect((await owner.client.get(`/api/v1/file-entries/${folder}/share-links`)).json().links).toEqual([]);
    expect((await guest(t.app).get(linkPath(link.token))).statusCode).toBe(404);
  });

  it("marks the entry as shared in its owner's listings while it has a link", async () => {
    const folder = await createFolder(owner.client, 'Marked by a link');
    const marked = async () =>
      ((await owner.client.get('/api/v1/drive/file-entries')).json().pagination.data as { hash: string; is_shared: boolean }[]).find((e) => e.hash === folder)!
        .is_shared;
    expect(await marked()).toBe(false);
    const link = await makeLink(owner, folder);
    expect(await marked()).toBe(true);
    await owner.client.request('DELETE', `/api/v1/share-links/${link.id}`);
    expect(await marked()).toBe(false);
  });

  it('changes only what is sent', async () => {
    const { link } = await fixture();
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const changed = await owner.client.request('PUT', `/api/v1/share-links/${link.id}`, { body: { expiresAt, maxDownloads: 2 } });
    expect(changed.json().link).toMatchObject({ expires_at: expiresAt, max_downloads: 2, allow_download: true, has_password: false, token: link.token });
    const cleared = await owner.client.request('PUT', `/api/v1/share-links/${link.id}`, { body: { expiresAt: null, maxDownloads: null } });
    expect(cleared.json().link).toMatchObject({ expires_at: null, max_downloads: null });
  });

  it('refuses bad settings with clear errors and changes nothing', async () => {
    const { folder, file, link } = await fixture();
    const fileDrop = await owner.client.post(`/api/v1/file-entries/${file}/share-links`, { fileDrop: true });
    expect(fileDrop.statusCode).toBe(422);
    expect(fileDrop.json().errors.fileDrop).toEqual(['Only folders can receive files.']);
    const past = await owner.client.request('PUT', `/api/v1/share-links/${link.id}`, { body: { expiresAt: '2020-01-01T00:00:00Z' } });
    expect(past.statusCode).toBe(422);
    expect(past.json().errors.expiresAt).toEqual(['The expiry must be in the future.']);
    expect((await owner.client.post(`/api/v1/file-entries/${folder}/share-links`, { password: 'abc' })).statusCode).toBe(422);
    expect((await owner.client.post(`/api/v1/file-entries/${folder}/share-links`, { maxDownloads: 0 })).statusCode).toBe(422);
    expect((await owner.client.get(`/api/v1/file-entries/${folder}/share-links`)).json().links).toHaveLength(1);
    expect((await owner.client.request('PUT', `/api/v1/share-links/999999`, { body: {} })).statusCode).toBe(404);
  });

  it('keeps an access log: opens, previews, downloads and failed passwords, with anonymised addresses', async () => {
    const { folder, file } = await fixture();
    const link = await makeLink(owner, folder, { password: 'let me in' });
    const visitor = guest(t.app, '192.0.2.77');
    await visitor.post(linkPath(link.token, '/password'), { password: 'nope' });
    await visitor.post(linkPath(link.token, '/password'), { password: 'let me in' });
    await visitor.get(linkPath(link.token, `/preview/${file}`));
    await visitor.get(linkPath(link.token, `/download?hashes=${file}`));
    const events = (await owner.client.get(`/api/v1/share-links/${link.id}/events`)).json().pagination;
    expect(events.data.map((e: { kind: string; entry_name: string | null }) => [e.kind, e.entry_name])).toEqual([
      ['download', 'a.txt'],
      ['preview', 'a.txt'],
      ['open', expect.stringMatching(/^Shared /)],
      ['password-failed', null],
    ]);
    expect(new Set(events.data.map((e: { address: string }) => e.address))).toEqual(new Set(['192.0.2.0/24']));
    const counts = (await owner.client.get(`/api/v1/file-entries/${folder}/share-links`)).json().links.find((l: { id: number }) => l.id === link.id);
    expect(counts).toMatchObject({ view_count: 1, download_count: 1 });
  });

  it('works in a workspace: its owner makes links there, an outsider cannot tell the entry exists', async () => {
    const created = await owner.client.post('/api/v1/workspace', { name: 'Team links' });
    expect(created.statusCode, created.body).toBe(200);
    // The owner of the workspace makes a link there like anywhere else.
    const workspaceId = created.json().workspace.id as number;
    const folder = (await owner.client.post(`/api/v1/folders?workspaceId=${workspaceId}`, { name: 'Team folder' })).json().folder.hash as string;
    expect((await owner.client.post(`/api/v1/file-entries/${folder}/share-links`, {})).statusCode).toBe(200);
    // Someone outside it cannot even tell it exists.
    expect((await stranger.client.post(`/api/v1/file-entries/${folder}/share-links`, {})).statusCode).toBe(404);
  });

  it('stops a link working once its maker may no longer share the entry (they left the workspace)', async () => {
    const workspaceId = await createWorkspace(owner.client, 'Team with an admin');
    const admin = await signedInUser(t.app);
    const memberId = await addMember(t.app, t.dataDir, owner.client, workspaceId, admin, (await workspaceRoles(owner.client)).admin);
    const folder = (await admin.client.post(`/api/v1/folders?workspaceId=${workspaceId}`, { name: 'Made by the admin' })).json().folder.hash as string;
    const link = await makeLink(admin, folder);
    expect((await guest(t.app).get(linkPath(link.token))).statusCode).toBe(200);
    expect((await owner.client.request('DELETE', `/api/v1/workspace/${workspaceId}/member/${memberId}`)).statusCode).toBe(200);
    expect((await guest(t.app).get(linkPath(link.token))).statusCode).toBe(404);
  });
});

describe('what the logs and the access log keep of a visitor', () => {
  it('cuts link ids out of logged addresses', () => {
    expect(redactUrl('/api/v1/shared-links/AbCdEfGhIjKlMnOpQrStUvWx/download?hashes=1')).toBe('/api/v1/shared-links/AbCd…/download?hashes=1');
    expect(redactUrl('/api/v1/drive/file-entries')).toBe('/api/v1/drive/file-entries');
  });

  it('keeps the network, not the host', () => {
    expect(anonymiseAddress('203.0.113.45')).toBe('203.0.113.0/24');
    expect(anonymiseAddress('::ffff:198.51.100.7')).toBe('198.51.100.0/24');
    expect(anonymiseAddress('2001:db8:85a3:8d3:1319:8a2e:370:7348')).toBe('2001:db8:85a3::/48');
    expect(anonymiseAddress('not an address')).toBeNull();
    expect(anonymiseAddress(undefined)).toBeNull();
  });
});
