import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireWithinOwnAccess } from '../../../server/modules/access/delegation.js';
import { permissionNames } from '../../../server/modules/users/accounts.repository.js';
import { TestClient } from '../support/client.js';
import { createUser, signedInUser, type UserOptions } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

const GRANT = (name: string) => `You cannot grant a permission you do not hold: ${name}.`;
const ACCOUNT = 'This account holds permissions you do not have.';
const ROLE = 'This role holds permissions you do not have.';

describe('the delegation rule (pure)', () => {
  const held = new Set(['users.update', 'files.view']);
  it.each([
    ['a name the caller holds', held, ['files.view'], null],
    ['nothing at all', held, [], null],
    ['a name the caller lacks', held, ['files.view', 'admin'], GRANT('admin')],
    ['anything, for `admin`', new Set(['admin']), ['admin', 'roles.update'], null],
  ])('granting %s', (_, caller, wanted, message) => {
    const run = () => requireWithinOwnAccess(caller, wanted, 'grant');
    if (message === null) expect(run).not.toThrow();
    else expect(run).toThrow(message);
  });
  it('names the subject it refuses', () => {
    expect(() => requireWithinOwnAccess(held, ['admin.access'], 'account')).toThrow(ACCOUNT);
    expect(() => requireWithinOwnAccess(held, ['admin.access'], 'role')).toThrow(ROLE);
  });
});

/**
 * Issue 30 finding 5: a holder of `users.update` (or `roles.update`, …) who is
 * not an admin made itself one. Nobody grants what they do not hold, nor
 * changes an account or a role that holds more than they do.
 */
describe('no admin call lifts anyone above the caller', () => {
  let t: TestApp;
  const db = () => servicesOf(t.app).db.kysely;
  const signedIn = (options: UserOptions = {}) => signedInUser(t.app, options);
  const roleId = async (name: string) => (await db().selectFrom('roles').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
  const holds = async (userId: number) => permissionNames(db(), userId);
  const expectRefused = (res: { statusCode: number; json(): { message: string } }, message: string) => {
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(message);
  };
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('users.update cannot grant itself admin, directly or by the admin role', async () => {
    const { user, client } = await signedIn({ permissions: [{ name: 'users.update' }] });
    const url = `/api/v1/admin/users/${user.id}`;
    expectRefused(await client.request('PUT', url, { body: { permissions: [{ name: 'users.update' }, { name: 'admin' }] } }), GRANT('admin'));
    expectRefused(await client.request('PUT', url, { body: { roles: [await roleId('users'), await roleId('admin')] } }), GRANT('admin'));
    expectRefused(await client.request('PUT', url, { body: { permissions: [{ name: 'users.update' }, { name: 'roles.update' }] } }), GRANT('roles.update'));
    expect((await holds(user.id)).has('admin')).toBe(false);
    // What it holds it may still hand itself (the rule is not "no change at all").
    const ok = await client.request('PUT', url, { body: { first_name: 'Still me', permissions: [{ name: 'users.update' }, { name: 'files.view' }] } });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('users.update cannot make a plain account an admin, but edits it within its own permissions', async () => {
    const { client } = await signedIn({ permissions: [{ name: 'users.update' }] });
    const plain = await createUser(db());
    const url = `/api/v1/admin/users/${plain.id}`;
    expectRefused(await client.request('PUT', url, { body: { permissions: [{ name: 'admin' }] } }), GRANT('admin'));
    expectRefused(await client.request('PUT', url, { body: { roles: [await roleId('admin')] } }), GRANT('admin'));
    expectRefused(await client.request('PUT', url, { body: { permissions: [{ name: 'admin.access' }] } }), GRANT('admin.access'));
    expect((await holds(plain.id)).has('admin')).toBe(false);
    const ok = await client.request('PUT', url, { body: { last_name: 'Edited', space: 1000 } });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('users.update cannot set an admin’s password or email, nor suspend or verify them; the admin’s sign-in still works', async () => {
    const admin = await createUser(db(), { roles: ['admin'] });
    const { client } = await signedIn({ permissions: [{ name: 'users.update' }] });
    const url = `/api/v1/admin/users/${admin.id}`;
    expectRefused(await client.request('PUT', url, { body: { password: 'taken over now' } }), ACCOUNT);
    expectRefused(await client.request('PUT', url, { body: { email: `mine-${admin.id}@example.com` } }), ACCOUNT);
    expectRefused(await client.request('PUT', url, { body: { first_name: 'Renamed' } }), ACCOUNT);
    expectRefused(await client.post('/api/v1/admin/users/bulk-update', { ids: [admin.id], action: 'suspend' }), ACCOUNT);
    expectRefused(await client.post('/api/v1/admin/users/bulk-update', { ids: [admin.id], action: 'verify' }), ACCOUNT);
    const row = await servicesOf(t.app).users.findById(admin.id);
    expect(row).toMatchObject({ email: admin.email, suspended_at: null, first_name: 'Test' });
    expect((await new TestClient(t.app).post('/auth/login', { email: admin.email, password: 'taken over now' })).statusCode).toBe(422);
    expect((await new TestClient(t.app).post('/auth/login', { email: admin.email, password: admin.password })).statusCode).toBe(200);
  });

  it('an account holding one permission more than the caller is out of reach too', async () => {
    const { client } = await signedIn({ permissions: [{ name: 'users.update' }] });
    const manager = await createUser(db(), { permissions: [{ name: 'users.update' }, { name: 'roles.update' }] });
    expectRefused(await client.request('PUT', `/api/v1/admin/users/${manager.id}`, { body: { first_name: 'X' } }), ACCOUNT);
  });

  it('users.delete and users.impersonate cannot reach an admin', async () => {
    const admin = await createUser(db(), { roles: ['admin'] });
    const { user: deleter, client: deleting } = await signedIn({ permissions: [{ name: 'users.delete' }] });
    expectRefused(await deleting.post('/api/v1/admin/users/bulk-delete', { ids: [admin.id], current_password: deleter.password }), ACCOUNT);
    expect(await servicesOf(t.app).users.findById(admin.id)).toBeDefined();
    const { user: support, client: supporting } = await signedIn({ permissions: [{ name: 'users.impersonate' }] });
    expectRefused(await supporting.post(`/api/v1/admin/users/${admin.id}/impersonate`, { current_password: support.password }), ACCOUNT);
  });

  it('users.create cannot create an admin', async () => {
    const { user, client } = await signedIn({ permissions: [{ name: 'users.create' }] });
    const body = { email: `made-${user.id}@example.com`, password: 'a good password', current_password: user.password };
    expectRefused(await client.post('/api/v1/admin/users', { ...body, roles: [await roleId('admin')] }), GRANT('admin'));
    expectRefused(await client.post('/api/v1/admin/users', { ...body, permissions: [{ name: 'admin' }] }), GRANT('admin'));
    expect(await db().selectFrom('users').select('id').where('email', '=', body.email).executeTakeFirst()).toBeUndefined();
    // Without roles, the default role is what registration gives anyone.
    expect((await client.post('/api/v1/admin/users', body)).statusCode).toBe(200);
  });

  it('roles.update cannot put admin into a role, nor edit or delete a role that holds more than it does', async () => {
    const { user, client } = await signedIn({ permissions: [{ name: 'roles.update' }] });
    const usersRole = await roleId('users');
    const adminRole = await roleId('admin');
    const usersPermissions = [...(await holds(user.id))].filter((name) => name !== 'roles.update').map((name) => ({ name }));
    // Its own role, the default one, given `admin`: every registered user (itself included) would be an admin.
    expectRefused(
      await client.request('PUT', `/api/v1/admin/roles/${usersRole}`, { body: { name: 'users', permissions: [...usersPermissions, { name: 'admin' }] } }),
      GRANT('admin'),
    );
    expectRefused(await client.post('/api/v1/admin/roles', { name: 'Climb', permissions: [{ name: 'admin' }] }), GRANT('admin'));
    expectRefused(await client.post('/api/v1/admin/roles', { name: 'Climb', permissions: [{ name: 'users.delete' }] }), GRANT('users.delete'));
    expectRefused(await client.request('PUT', `/api/v1/admin/roles/${adminRole}`, { body: { name: 'admin', permissions: [{ name: 'files.view' }] } }), ROLE);
    expectRefused(await client.request('DELETE', `/api/v1/admin/roles/${adminRole}`), ROLE);
    expect((await holds(user.id)).has('admin')).toBe(false);
    expect(await db().selectFrom('roles').select('id').where('id', '=', adminRole).executeTakeFirst()).toBeDefined();
    // Within its own permissions it still manages roles.
    const made = await client.post('/api/v1/admin/roles', { name: 'Viewers', permissions: [{ name: 'files.view' }] });
    expect(made.statusCode, made.body).toBe(200);
    expect((await client.request('DELETE', `/api/v1/admin/roles/${made.json().role.id}`)).statusCode).toBe(200);
  });

  it('an admin may do all of it', async () => {
    const { user: me, client } = await signedIn({ roles: ['admin'] });
    const plain = await createUser(db());
    const res = await client.request('PUT', `/api/v1/admin/users/${plain.id}`, { body: { roles: [await roleId('admin')], current_password: me.password } });
    expect(res.statusCode, res.body).toBe(200);
    expect((await holds(plain.id)).has('admin')).toBe(true);
  });
});
