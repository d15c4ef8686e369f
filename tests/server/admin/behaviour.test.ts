import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.js';
import { createUser, signedInUser, type UserOptions } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { Readable } from 'node:stream';
import { actorFor, createFolder, uploadFile } from '../support/drive-factories.js';
import { addMember, createWorkspace, workspaceRoles } from '../workspaces/support.js';
import { servicesOf } from '../support/services-handle.js';

describe('admin area rules', () => {
  let t: TestApp;
  const db = () => servicesOf(t.app).db.kysely;
  const signedIn = (options: UserOptions = {}) => signedInUser(t.app, options);
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('suspension ends sessions and access tokens at once, refuses sign-in, and unsuspending lets them back', async () => {
    const { client: admin } = await signedIn({ roles: ['admin'] });
    const { user, client } = await signedIn();
    const token = await servicesOf(t.app).auth.accessTokens.create(user.id, 'cli');
    const api = new TestClient(t.app);
    api.bearer = token.token;
    expect((await client.get('/api/v1/user/space-usage')).statusCode).toBe(200);
    expect((await admin.post('/api/v1/admin/users/bulk-update', { ids: [user.id], action: 'suspend' })).statusCode).toBe(200);
    expect((await client.get('/api/v1/user/space-usage')).statusCode).toBe(401);
    expect((await api.get('/api/v1/user/space-usage')).statusCode).toBe(401);
    const again = await new TestClient(t.app).post('/auth/login', { email: user.email, password: user.password });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors.email).toEqual(['This account is suspended.']);
    await admin.post('/api/v1/admin/users/bulk-update', { ids: [user.id], action: 'unsuspend' });
    expect((await new TestClient(t.app).post('/auth/login', { email: user.email, password: user.password })).statusCode).toBe(200);
  });

  it('settings: validated with field errors, effective at once, secrets never answered', async () => {
    const { client: admin } = await signedIn({ roles: ['admin'] });
    const bad = await admin.request('PUT', '/api/v1/admin/settings', {
      body: { 'site.marketing_url': 'not a url', 'uploads.max_size': -1, 'mail.from': 'nobody', 'mail.url': 'http://x' },
    });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['mail.from', 'mail.url', 'site.marketing_url', 'uploads.max_size']);
    expect((await admin.request('PUT', '/api/v1/admin/settings', { body: { 'no.such': 1 } })).statusCode).toBe(422);

    const secret = 'super-secret-value-123';
    const ok = await admin.request('PUT', '/api/v1/admin/settings', {
      body: {
        'social.google.client_secret': secret,
        'billing.stripe.webhook_secret': `whsec_${secret}`,
        'mail.url': 'smtp://u:pw-secret@127.0.0.1:1',
        'registration.disable': true,
      },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.body).not.toContain(secret);
    const read = await admin.get('/api/v1/admin/settings');
    expect(read.body).not.toContain(secret);
    expect(read.body).not.toContain('pw-secret');
    expect(read.json().secrets['social.google.client_secret']).toBe(true);
    expect(read.json().secrets['recaptcha.secret_key']).toBe(false);
    expect(read.json().secrets['billing.stripe.webhook_secret']).toBe(true);
    expect(read.json().groups.billing).toEqual(['billing.enable', 'billing.stripe.secret_key', 'billing.stripe.webhook_secret']);
    expect(read.json().mail.configured).toBe(true);
    const boot = await new TestClient(t.app).get('/api/v1/bootstrap-data');
    expect(boot.body).not.toContain(secret);
    expect(boot.json().data.registration.disable).toBe(true);
    const activity = await admin.get('/api/v1/admin/activity?query=settings');
    expect(activity.body).not.toContain(secret);
    expect(activity.json().pagination.data[0].details.secrets).toContain('social.google.client_secret');
    // Registration is off at once, without a restart.
    const reg = await new TestClient(t.app).post('/auth/register', {
      email: 'x@example.com',
      password: 'long enough pw',
      password_confirmation: 'long enough pw',
    });
    expect(reg.statusCode).not.toBe(200);
    await admin.request('PUT', '/api/v1/admin/settings', { body: { 'registration.disable': false, 'mail.url': '' } });
  });

  it('an admin cannot remove their own admin access, suspend or delete themselves, or leave no admin', async () => {
    const { user: me, client: admin } = await signedIn({ roles: ['admin'] });
    const roles = (await admin.get('/api/v1/admin/roles')).json().roles as { id: number; name: string }[];
    const usersRole = roles.find((r) => r.name === 'users')!.id;
    const res = await admin.request('PUT', `/api/v1/admin/users/${me.id}`, { body: { roles: [usersRole] } });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('You cannot remove your own admin access.');
    expect((await admin.post('/api/v1/admin/users/bulk-update', { ids: [me.id], action: 'suspend' })).statusCode).toBe(409);
    expect((await admin.post('/api/v1/admin/users/bulk-delete', { ids: [me.id], current_password: me.password })).statusCode).toBe(409);
    const adminRole = roles.find((r) => r.name === 'admin')!;
    const edit = await admin.request('PUT', `/api/v1/admin/roles/${adminRole.id}`, { body: { name: 'admin', permissions: [{ name: 'files.view' }] } });
    expect(edit.statusCode).toBe(409);
    // Still an admin after every refusal.
    expect((await admin.get('/api/v1/admin/users')).statusCode).toBe(200);
  });

  it('a user manager cannot delete admins, not even down to the last one (issue 30: nobody changes an account above them)', async () => {
    const { client: admin } = await signedIn({ roles: ['admin'] });
    const { user: managerUser, client: manager } = await signedIn({ permissions: [{ name: 'users.delete' }, { name: 'users.view' }] });
    const admins = (await manager.get('/api/v1/admin/users?perPage=100'))
      .json()
      .pagination.data.filter((u: { roles: { name: string }[] }) => u.roles.some((r) => r.name === 'admin')) as { id: number }[];
    const res = await manager.post('/api/v1/admin/users/bulk-delete', { ids: admins.map((a) => a.id), current_password: managerUser.password });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('This account holds permissions you do not have.');
    expect((await admin.get('/api/v1/admin/users')).statusCode).toBe(200);
  });

  it('sign in as: marked in the bootstrap data, recorded, and ended with one call; another admin needs `admin`', async () => {
    const { user: adminUser, client: admin } = await signedIn({ roles: ['admin'] });
    const { user } = await signedIn();
    const proof = { current_password: adminUser.password };
    const started = await admin.post(`/api/v1/admin/users/${user.id}/impersonate`, proof);
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json().bootstrapData.user.id).toBe(user.id);
    const boot = (await admin.get('/api/v1/bootstrap-data')).json().data;
    expect(boot.user.id).toBe(user.id);
    expect(boot.impersonator).toMatchObject({ id: adminUser.id, email: adminUser.email });
    expect((await admin.get('/api/v1/admin/users')).statusCode).toBe(403);
    const back = await admin.post('/api/v1/admin/impersonation/stop');
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().bootstrapData.user.id).toBe(adminUser.id);
    expect(back.json().bootstrapData.impersonator).toBeNull();
    const log = (await admin.get('/api/v1/admin/activity')).json().pagination.data.map((a: { action: string }) => a.action);
    expect(log).toEqual(expect.arrayContaining(['user.impersonated', 'user.impersonation_ended']));
    expect((await admin.post('/api/v1/admin/impersonation/stop')).statusCode).toBe(409);

    const { user: supportUser, client: support } = await signedIn({ permissions: [{ name: 'users.impersonate' }] });
    const other = await createUser(db(), { roles: ['admin'] });
    expect((await support.post(`/api/v1/admin/users/${other.id}/impersonate`, { current_password: supportUser.password })).statusCode).toBe(403);
    expect((await admin.post(`/api/v1/admin/users/${other.id}/impersonate`, proof)).statusCode).toBe(200);
  });

  it('users: created with roles and a space override, listed with space used, deleted with their files', async () => {
    const { user: me, client: admin } = await signedIn({ roles: ['admin'] });
    const created = await admin.post('/api/v1/admin/users', { email: 'made@example.com', password: 'a good password', first_name: 'Made', space: 1000 });
    expect(created.statusCode, created.body).toBe(200);
    const made = created.json().user;
    expect(made.space).toBe(1000);
    expect(made.space_available).toBe(1000);
    expect(made.roles.map((r: { name: string }) => r.name)).toEqual(['users']);
    const dup = await admin.post('/api/v1/admin/users', { email: 'made@example.com', password: 'a good password' });
    expect(dup.statusCode).toBe(422);
    expect(dup.json().errors.email).toEqual(['The email has already been taken.']);
    const page = (await admin.get('/api/v1/admin/users?query=made%40&orderBy=email&orderDir=asc')).json().pagination;
    expect(page.total).toBe(1);
    expect(page.data[0]).toMatchObject({ email: 'made@example.com', space_used: 0, space_available: 1000 });
    expect((await admin.post('/api/v1/admin/users/bulk-delete', { ids: [made.id], current_password: me.password })).statusCode).toBe(200);
    expect((await admin.get(`/api/v1/admin/users/${made.id}`)).statusCode).toBe(404);
  });

  it('files: listed with owner, deleted forever with bytes after rows, downloaded for support and recorded', async () => {
    const { client: admin } = await signedIn({ roles: ['admin'] });
    const owner = await createUser(db());
    const entry = await uploadFile(t.app, owner, { name: 'support-me.txt', content: 'secret bytes' });
    const page = (await admin.get('/api/v1/admin/files?query=support-me')).json().pagination;
    expect(page.data).toEqual([expect.objectContaining({ id: entry.id, owner_email: owner.email, file_size: 12, type: entry.type })]);
    const download = await admin.get(`/api/v1/admin/files/${entry.id}/download`);
    expect(download.statusCode).toBe(200);
    expect(download.body).toBe('secret bytes');
    expect((await admin.post('/api/v1/admin/files/delete', { ids: [entry.id] })).statusCode).toBe(200);
    expect((await admin.get('/api/v1/admin/files?query=support-me')).json().pagination.total).toBe(0);
    const log = (await admin.get('/api/v1/admin/activity?query=support-me')).json().pagination.data.map((a: { action: string }) => a.action);
    expect(log).toEqual(['file.deleted', 'file.downloaded']);
  });

  it('dashboard: counts, today in the chart, largest users, version and warnings', async () => {
    const { client: admin } = await signedIn({ roles: ['admin'] });
    const owner = await createUser(db());
    await uploadFile(t.app, owner, { name: 'big.bin', content: Buffer.alloc(5000) });
    const weak = await createUser(db(), { roles: ['admin'], password: 'admin' });
    const res = await admin.get('/api/v1/admin/dashboard');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.users).toBeGreaterThanOrEqual(3);
    expect(body.files).toBeGreaterThanOrEqual(1);
    expect(body.per_day).toHaveLength(30);
    const today = body.per_day.at(-1);
    expect(today.date).toBe(new Date().toISOString().slice(0, 10));
    expect(today.uploads).toBeGreaterThanOrEqual(1);
    expect(today.signups).toBeGreaterThanOrEqual(3);
    expect(body.largest_users[0]).toMatchObject({ email: owner.email, bytes: 5000 });
    expect(body.version).toBe('4.02');
    expect(body.space.disk_total).toBeGreaterThan(0);
    expect(body.warnings).toEqual(expect.arrayContaining(['mail_not_configured', 'default_admin_password']));
    await db().deleteFrom('users').where('id', '=', weak.id).execute();
    expect((await admin.get('/api/v1/admin/dashboard')).json().warnings).not.toContain('default_admin_password');
  });
  it('space: the admin user list and dashboard charge each user what their own storage summary says (one rule, in drive)', async () => {
    const { client: admin } = await signedIn({ roles: ['admin'] });
    const owner = await signedIn();
    const editor = await signedIn();
    // What is charged: files (not folders), trash included, and a workspace's files to its owner, whoever uploaded them.
    const workspaceId = await createWorkspace(owner.client, 'Charged space');
    await addMember(t.app, t.dataDir, owner.client, workspaceId, editor, (await workspaceRoles(owner.client)).editor);
    const folder = await createFolder(owner.client, 'Folder');
    await uploadFile(t.app, owner.user, { name: 'kept.bin', content: Buffer.alloc(3000), parentId: folder });
    const trashed = await uploadFile(t.app, owner.user, { name: 'trashed.bin', content: Buffer.alloc(700) });
    expect((await owner.client.post('/api/v1/file-entries/delete', { entryIds: [trashed.hash] })).statusCode).toBe(200);
    const editorActor = await actorFor(t.app, editor.user);
    await servicesOf(t.app).drive.files.createFileFromStream(editorActor, await servicesOf(t.app).drive.scope(editorActor, workspaceId), {
      parentId: null,
      name: 'theirs.bin',
      stream: Readable.from([Buffer.alloc(1100)]),
    });
    await uploadFile(t.app, editor.user, { name: 'own.bin', content: Buffer.alloc(50) });

    const ownUsage = async (client: TestClient) => (await client.get('/api/v1/user/space-usage')).json().used as number;
    const listed = async (email: string) => (await admin.get(`/api/v1/admin/users?query=${encodeURIComponent(email)}`)).json().pagination.data[0].space_used;
    expect(await listed(owner.user.email)).toBe(await ownUsage(owner.client));
    expect(await listed(editor.user.email)).toBe(await ownUsage(editor.client));
    expect(await ownUsage(owner.client)).toBe(4800);
    expect(await ownUsage(editor.client)).toBe(50);
    const bySpace = (await admin.get('/api/v1/admin/users?orderBy=space_used&orderDir=desc&perPage=100')).json().pagination;
    expect(bySpace.data.map((u: { space_used: number }) => u.space_used)).toEqual(
      [...bySpace.data.map((u: { space_used: number }) => u.space_used)].sort((a: number, b: number) => b - a),
    );

    const dashboard = (await admin.get('/api/v1/admin/dashboard')).json();
    const everyone = bySpace.data.reduce((sum: number, u: { space_used: number }) => sum + u.space_used, 0);
    expect(bySpace.total).toBeLessThanOrEqual(100);
    expect(dashboard.space.used).toBe(everyone);
    const listedBytes = new Map(bySpace.data.map((u: { id: number; space_used: number }) => [u.id, u.space_used]));
    for (const largest of dashboard.largest_users) expect(largest.bytes).toBe(listedBytes.get(largest.id));
    const charged = bySpace.data.map((u: { space_used: number }) => u.space_used).filter((bytes: number) => bytes > 0);
    expect(dashboard.largest_users.map((u: { bytes: number }) => u.bytes)).toEqual(charged.slice(0, 5));
    expect(dashboard.largest_users).toContainEqual({ id: owner.user.id, email: owner.user.email, bytes: 4800 });
  });
});
