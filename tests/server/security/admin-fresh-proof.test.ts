import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowIso } from '../../../server/lib/time.js';
import { TestClient } from '../support/client.js';
import { createUser, signedInUser, type UserOptions } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

const ASK = { current_password: ['Enter your current password to confirm this change.'] };
const WRONG = { current_password: ['The current password is incorrect.'] };

/**
 * Issue 30 finding 8: signing in as a user, granting `admin`, setting a user's
 * password or email and deleting a user ask the admin's own password again
 * (or, for an account without one, a sign-in of the last ten minutes): the
 * proof account changes already use.
 */
describe('sensitive admin actions need fresh proof', () => {
  let t: TestApp;
  const db = () => servicesOf(t.app).db.kysely;
  const signedIn = (options: UserOptions = {}) => signedInUser(t.app, options);
  const adminRole = async () => (await db().selectFrom('roles').select('id').where('name', '=', 'admin').executeTakeFirstOrThrow()).id;
  const holdsAdmin = async (userId: number) => (await servicesOf(t.app).users.findWithAccess(userId))!.permissions.some((p) => p.name === 'admin');
  const expectAsked = (res: { statusCode: number; json(): { errors?: unknown } }, errors = ASK) => {
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual(errors);
  };
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('sign in as', async () => {
    const { user: admin, client } = await signedIn({ roles: ['admin'] });
    const target = await createUser(db());
    const url = `/api/v1/admin/users/${target.id}/impersonate`;
    expectAsked(await client.post(url));
    expectAsked(await client.post(url, { current_password: 'not it' }), WRONG);
    expect((await client.get('/api/v1/admin/users')).statusCode).toBe(200);
    const ok = await client.post(url, { current_password: admin.password });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().bootstrapData.user.id).toBe(target.id);
  });

  it('setting a user’s password or email', async () => {
    const { user: admin, client } = await signedIn({ roles: ['admin'] });
    const target = await createUser(db());
    const url = `/api/v1/admin/users/${target.id}`;
    expectAsked(await client.request('PUT', url, { body: { password: 'a new password' } }));
    expectAsked(await client.request('PUT', url, { body: { email: `new-${target.id}@example.com` } }));
    expect(await servicesOf(t.app).users.findById(target.id)).toMatchObject({ email: target.email });
    expect((await new TestClient(t.app).post('/auth/login', { email: target.email, password: 'a new password' })).statusCode).toBe(422);
    // The same email, a name or a space override need nothing more.
    expect((await client.request('PUT', url, { body: { email: target.email, first_name: 'Ada', space: 5000 } })).statusCode).toBe(200);
    const ok = await client.request('PUT', url, { body: { password: 'a new password', current_password: admin.password } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await new TestClient(t.app).post('/auth/login', { email: target.email, password: 'a new password' })).statusCode).toBe(200);
  });

  it('granting admin, to a user or to a role; keeping it asks nothing', async () => {
    const { user: admin, client } = await signedIn({ roles: ['admin'] });
    const target = await createUser(db());
    const url = `/api/v1/admin/users/${target.id}`;
    expectAsked(await client.request('PUT', url, { body: { roles: [await adminRole()] } }));
    expectAsked(await client.request('PUT', url, { body: { permissions: [{ name: 'admin' }] } }));
    expect(await holdsAdmin(target.id)).toBe(false);
    expect((await client.request('PUT', url, { body: { roles: [await adminRole()], current_password: admin.password } })).statusCode).toBe(200);
    expect(await holdsAdmin(target.id)).toBe(true);
    // The edit form sends the roles every time: an admin staying an admin is no new grant.
    expect((await client.request('PUT', url, { body: { roles: [await adminRole()], first_name: 'Grace' } })).statusCode).toBe(200);

    const created = await client.post('/api/v1/admin/users', {
      email: `born-admin-${target.id}@example.com`,
      password: 'a good password',
      roles: [await adminRole()],
    });
    expectAsked(created);
    const role = (await client.post('/api/v1/admin/roles', { name: `Ops ${target.id}`, permissions: [{ name: 'files.view' }] })).json().role;
    expectAsked(await client.request('PUT', `/api/v1/admin/roles/${role.id}`, { body: { name: role.name, permissions: [{ name: 'admin' }] } }));
    expectAsked(await client.post('/api/v1/admin/roles', { name: `Root ${target.id}`, permissions: [{ name: 'admin' }] }));
    const granted = await client.request('PUT', `/api/v1/admin/roles/${role.id}`, {
      body: { name: role.name, permissions: [{ name: 'admin' }], current_password: admin.password },
    });
    expect(granted.statusCode, granted.body).toBe(200);
  });

  it('deleting a user, in the admin area and through the account route', async () => {
    const { user: admin, client } = await signedIn({ roles: ['admin'] });
    const first = await createUser(db());
    const second = await createUser(db());
    expectAsked(await client.post('/api/v1/admin/users/bulk-delete', { ids: [first.id] }));
    expectAsked(await client.request('DELETE', `/api/v1/users/${second.id}`));
    expect(await servicesOf(t.app).users.findById(first.id)).toBeDefined();
    expect(await servicesOf(t.app).users.findById(second.id)).toBeDefined();
    expect((await client.post('/api/v1/admin/users/bulk-delete', { ids: [first.id], current_password: admin.password })).statusCode).toBe(200);
    expect((await client.request('DELETE', `/api/v1/users/${second.id}`, { body: { current_password: admin.password } })).statusCode).toBe(200);
    expect(await servicesOf(t.app).users.findById(first.id)).toBeUndefined();
  });

  it('an admin without a password confirms with a sign-in of the last ten minutes', async () => {
    const { user: admin, client } = await signedIn({ roles: ['admin'] });
    await db().updateTable('users').set({ password: null }).where('id', '=', admin.id).execute();
    const target = await createUser(db());
    expect((await client.post(`/api/v1/admin/users/${target.id}/impersonate`)).statusCode).toBe(200);
    await client.post('/api/v1/admin/impersonation/stop');
    await db()
      .updateTable('sessions')
      .set({ created_at: new Date(Date.now() - 60 * 60 * 1000).toISOString(), last_active_at: nowIso() })
      .where('user_id', '=', admin.id)
      .execute();
    expectAsked(await client.post(`/api/v1/admin/users/${target.id}/impersonate`), { current_password: ['Sign in again to confirm this change.'] });
  });

  it('over an access token, the token needs the account scope as well', async () => {
    const admin = await createUser(db(), { roles: ['admin'] });
    const target = await createUser(db());
    const api = new TestClient(t.app);
    api.xsrf = false;
    api.bearer = (await servicesOf(t.app).auth.accessTokens.create(admin.id, 'cli', null, ['read', 'write'])).token;
    const res = await api.post('/api/v1/admin/users/bulk-delete', { ids: [target.id], current_password: admin.password });
    expect(res.statusCode).toBe(403);
    expect(await servicesOf(t.app).users.findById(target.id)).toBeDefined();
  });

  it('unknown accounts and roles answer 404 before any password is asked; guests 401; plain users 403', async () => {
    const { client } = await signedIn({ roles: ['admin'] });
    const { client: plain } = await signedIn();
    const calls: [string, string, unknown][] = [
      ['POST', '/api/v1/admin/users/999999/impersonate', {}],
      ['PUT', '/api/v1/admin/users/999999', { password: 'a new password' }],
      ['POST', '/api/v1/admin/users/bulk-delete', { ids: [999999] }],
      ['PUT', '/api/v1/admin/roles/999999', { name: 'Gone', permissions: [{ name: 'admin' }] }],
    ];
    for (const [method, url, body] of calls) {
      expect((await client.request(method as 'POST', url, { body })).statusCode, url).toBe(404);
      expect((await plain.request(method as 'POST', url, { body })).statusCode, url).toBe(403);
      expect((await new TestClient(t.app).request(method as 'POST', url, { body })).statusCode, url).toBe(401);
    }
  });
});
