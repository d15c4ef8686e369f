import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.js';
import { signedInUser, type UserOptions } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { changesAccess, InProcessAccessChanges } from '../../../server/db/changes.js';
import { AccessCache } from '../../../server/modules/auth/access-cache.js';
import { servicesOf } from '../support/services-handle.js';
import { restoreSettingsAfterTest } from '../support/settings.js';

/**
 * Who a caller is comes from a per-process cache (server/modules/auth/access-cache.ts).
 * Every change that matters must still apply to the very next request, warm cache or not.
 */
describe('access cache: changes apply at once', () => {
  let t: TestApp;
  const db = () => servicesOf(t.app).db.kysely;
  const signedIn = (options: UserOptions = {}) => signedInUser(t.app, options);
  const statements = async (call: () => Promise<unknown>) => {
    // Only the request's own statements: background work earlier uploads queued (text extraction) is done first.
    await servicesOf(t.app).jobs.idle();
    const before = servicesOf(t.app).db.counter.statements;
    await call();
    return servicesOf(t.app).db.counter.statements - before;
  };

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('a warm session costs no statement: the same call sends fewer statements the second time', async () => {
    const { client } = await signedIn();
    const cold = await statements(() => client.get('/api/v1/user/space-usage'));
    const warm = await statements(() => client.get('/api/v1/user/space-usage'));
    // session, user, roles, role permissions and direct permissions are no longer read
    expect(cold - warm).toBeGreaterThanOrEqual(4);
  });

  it('logout ends the session for the next request though the cache held it', async () => {
    const { client } = await signedIn();
    expect((await client.get('/api/v1/user/space-usage')).statusCode).toBe(200);
    const cookie = client.cookies.get('drive_session');
    expect((await client.post('/auth/logout')).statusCode).toBe(200);
    const replay = new TestClient(t.app);
    replay.cookies.set('drive_session', cookie!);
    expect((await replay.get('/api/v1/user/space-usage')).statusCode).toBe(401);
  });

  it('suspension refuses the warm session at once', async () => {
    const { client: admin } = await signedIn({ roles: ['admin'] });
    const { user, client } = await signedIn();
    expect((await client.get('/api/v1/user/space-usage')).statusCode).toBe(200);
    expect((await client.get('/api/v1/user/space-usage')).statusCode).toBe(200);
    expect((await admin.post('/api/v1/admin/users/bulk-update', { ids: [user.id], action: 'suspend' })).statusCode).toBe(200);
    expect((await client.get('/api/v1/user/space-usage')).statusCode).toBe(401);
  });

  it('suspension refuses a warm WebDAV token at once, and a revoke the token itself', async () => {
    const { client: admin } = await signedIn({ roles: ['admin'] });
    const { user } = await signedIn();
    const accessTokens = servicesOf(t.app).auth.accessTokens;
    const token = async () => {
      const { id, token: secret } = await accessTokens.create(user.id, 'dav', null, ['read']);
      return { id, headers: { depth: '0', authorization: `Basic ${Buffer.from(`${user.email}:${secret}`).toString('base64')}` } };
    };
    const propfind = (headers: Record<string, string>) => t.app.inject({ method: 'PROPFIND', url: '/dav/My%20drive/', headers });
    const kept = await token();
    const revoked = await token();
    for (const { headers } of [kept, revoked]) for (let i = 0; i < 2; i += 1) expect((await propfind(headers)).statusCode).toBe(207);
    // Warm: the token, its user and their permissions come from the cache, no statement for them.
    expect(await statements(() => propfind(kept.headers))).toBeLessThanOrEqual(1);
    expect(await accessTokens.revoke(user.id, revoked.id)).toBe(true);
    expect((await propfind(revoked.headers)).statusCode).toBe(401);
    expect((await propfind(kept.headers)).statusCode).toBe(207);
    expect((await admin.post('/api/v1/admin/users/bulk-update', { ids: [user.id], action: 'suspend' })).statusCode).toBe(200);
    expect((await propfind(kept.headers)).statusCode).toBe(401);
  });

  it("a role's permissions taken away, or the role taken from the user, apply to the next request", async () => {
    const { user: me, client: admin } = await signedIn({ roles: ['admin'] });
    // Granting `admin` asks the admin's password again (issue 30 finding 8).
    const proof = { current_password: me.password };
    const created = await admin.post('/api/v1/admin/roles', { name: 'Cache testers', permissions: [{ name: 'admin' }], ...proof });
    expect(created.statusCode, created.body).toBe(200);
    const roleId = created.json().role.id as number;
    const { user, client } = await signedIn();
    const users = await db().selectFrom('roles').select('id').where('name', '=', 'users').executeTakeFirstOrThrow();
    expect((await admin.request('PUT', `/api/v1/admin/users/${user.id}`, { body: { roles: [users.id, roleId], ...proof } })).statusCode).toBe(200);
    expect((await client.get('/api/v1/admin/users')).statusCode).toBe(200);
    expect((await client.get('/api/v1/admin/users')).statusCode).toBe(200);

    const edited = await admin.request('PUT', `/api/v1/admin/roles/${roleId}`, { body: { name: 'Cache testers', permissions: [] } });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await client.get('/api/v1/admin/users')).statusCode).toBe(403);

    await admin.request('PUT', `/api/v1/admin/roles/${roleId}`, { body: { name: 'Cache testers', permissions: [{ name: 'admin' }], ...proof } });
    expect((await client.get('/api/v1/admin/users')).statusCode).toBe(200);
    expect((await admin.request('PUT', `/api/v1/admin/users/${user.id}`, { body: { roles: [users.id] } })).statusCode).toBe(200);
    expect((await client.get('/api/v1/admin/users')).statusCode).toBe(403);
  });

  it('reads the settings once, and a write to them applies to the next read', async () => {
    const settings = servicesOf(t.app).settings;
    const counter = servicesOf(t.app).db.counter;
    await restoreSettingsAfterTest(t.app, ['uploads.available_space']);
    await settings.get('uploads.available_space');
    const before = counter.statements;
    await settings.get('uploads.available_space');
    await settings.all();
    expect(counter.statements - before).toBe(0);
    await db()
      .insertInto('settings')
      .values({ key: 'uploads.available_space', value: JSON.stringify(12345), private: 0, updated_at: new Date().toISOString() })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(12345) }))
      .execute();
    expect(await settings.get('uploads.available_space')).toBe(12345);
    expect((await settings.all())['uploads.available_space']).toBe(12345);
    // What a caller does with its copy is its own.
    const all = await settings.all();
    all['uploads.available_space'] = 1;
    expect((await settings.all())['uploads.available_space']).toBe(12345);
    await db().deleteFrom('settings').where('key', '=', 'uploads.available_space').execute();
    expect(await settings.get('uploads.available_space')).not.toBe(12345);
  });
});

describe('access cache: the bus and what counts as a change', () => {
  it('empties on a publish from elsewhere (another process on a shared bus) and keeps nothing loaded across one', async () => {
    const bus = new InProcessAccessChanges();
    const cache = new AccessCache(bus);
    let loads = 0;
    const load = async () => {
      loads += 1;
      return null;
    };
    await cache.users.get(1, load);
    await cache.users.get(1, load);
    expect(loads).toBe(1);
    bus.publish('access');
    await cache.users.get(1, load);
    expect(loads).toBe(2);
    // A change while a load is under way: that load's rows may predate it, so they are not kept.
    await cache.users.get(2, async () => {
      bus.publish('access');
      return null;
    });
    await cache.users.get(2, load);
    expect(loads).toBe(3);
  });

  it('expires entries after a short while even without a publish', async () => {
    let now = 0;
    const cache = new AccessCache(new InProcessAccessChanges(), () => now);
    let loads = 0;
    const load = async () => {
      loads += 1;
      return null;
    };
    await cache.sessions.get('a', load);
    now = 29_000;
    await cache.sessions.get('a', load);
    now = 31_000;
    await cache.sessions.get('a', load);
    expect(loads).toBe(2);
  });

  it('treats writes to sessions, users, roles and permissions as changes, and nothing else', () => {
    expect(changesAccess('update "users" set "suspended_at" = ? where "id" = ?')).toBe(true);
    expect(changesAccess('delete from "sessions" where "id" = ?')).toBe(true);
    expect(changesAccess('insert into "user_roles" ("user_id", "role_id") values (?, ?)')).toBe(true);
    expect(changesAccess('delete from "role_permissions" where "role_id" = ?')).toBe(true);
    expect(changesAccess('insert into "sessions" ("id") values (?)')).toBe(false);
    expect(changesAccess('select * from "users" where "id" = ?')).toBe(false);
    expect(changesAccess('update "users_usage" set x = 1')).toBe(false);
    expect(changesAccess('update "file_entries" set "name" = ?')).toBe(false);
  });

  it('treats a revoked token and a settings write as changes; a new token and a token\'s "last used" time are not', () => {
    expect(changesAccess('delete from "personal_access_tokens" where "id" = ? and "user_id" = ?')).toBe(true);
    expect(changesAccess('delete from "personal_access_tokens" where "user_id" = ?')).toBe(true);
    expect(changesAccess('update "personal_access_tokens" set "scopes" = ? where "id" = ?')).toBe(true);
    expect(changesAccess('update "personal_access_tokens" set "last_used_at" = ? where "id" = ?')).toBe(false);
    expect(changesAccess('update "personal_access_tokens" set "last_used_at" = $1 where "id" = $2')).toBe(false);
    expect(changesAccess('insert into "personal_access_tokens" ("user_id") values (?)')).toBe(false);
    expect(changesAccess('insert into "settings" ("key", "value") values (?, ?) on conflict ("key") do update set "value" = ?')).toBe(true);
    expect(changesAccess('delete from "settings" where "key" in (?)')).toBe(true);
  });
});
