import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.js';
import { createUser, signedInUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';
import { awayFromStepEnd, codeAt, enableTotp } from './support.js';

/**
 * Issue 36, items 4 and 5: a role that requires two-factor sign-in, who has a
 * second factor in the admin's users list, the admin's reset of a user who
 * lost every factor, and a second factor as proof for accounts without a password.
 */
describe('two-factor: admin (issue 36)', () => {
  let t: TestApp;
  const db = () => servicesOf(t.app).db.kysely;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  let n = 0;
  /** A sitewide role holding files.view, required to use two-factor sign-in or not. */
  async function role(require: boolean): Promise<string> {
    const name = `2fa-role-${++n}-${Date.now()}`;
    const now = new Date().toISOString();
    await db()
      .insertInto('roles')
      .values({ name, type: 'sitewide', require_two_factor: require ? 1 : 0, created_at: now, updated_at: now })
      .execute();
    return name;
  }
  const fresh = (client: TestClient) => {
    client.remoteAddress = `10.36.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    return client;
  };

  it('a role requiring it: after the password, the session reaches only the set-up calls until a factor is set up', async () => {
    const user = await createUser(db(), { roles: ['users', await role(true)] });
    const client = fresh(new TestClient(t.app));
    const login = await client.post('/auth/login', { email: user.email, password: user.password });
    expect(login.statusCode, login.body).toBe(200);
    expect(login.json().two_factor_setup).toBe(true);
    expect(login.json().bootstrapData.user).toBe(null);
    // Nothing of the account: the bootstrap is a guest's, the drive and the profile answer 401.
    const pending = (await client.get('/api/v1/bootstrap-data')).json().data;
    expect(pending.user).toBe(null);
    // …which says the set-up is pending, so a reloaded page goes back to it.
    expect(pending.two_factor_setup).toBe(true);
    expect(login.json().bootstrapData.two_factor_setup).toBe(true);
    expect((await new TestClient(t.app).get('/api/v1/bootstrap-data')).json().data.two_factor_setup).toBe(false);
    expect((await client.get('/api/v1/drive/file-entries')).statusCode).toBe(401);
    expect((await client.get(`/api/v1/users/${user.id}`)).statusCode).toBe(401);
    expect((await client.post('/api/v1/access-tokens', { tokenName: 'cli' })).statusCode).toBe(401);
    // The set-up screen's calls work.
    expect((await client.get('/api/v1/user/two-factor')).statusCode).toBe(200);
    expect((await client.get('/api/v1/user/passkeys')).statusCode).toBe(200);
    expect((await client.post('/api/v1/user/passkeys/options')).statusCode).toBe(200);
    const { secret } = (await client.post('/api/v1/user/two-factor/totp')).json();
    await awayFromStepEnd();
    const confirmed = await client.post('/api/v1/user/two-factor/totp/confirm', { code: codeAt(secret) });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    // Set up: the same session now reaches the account.
    const signedIn = (await client.get('/api/v1/bootstrap-data')).json().data;
    expect(signedIn.user.id).toBe(user.id);
    expect(signedIn.two_factor_setup).toBe(false);
    expect((await client.get(`/api/v1/users/${user.id}`)).statusCode).toBe(200);
    // And the next sign-in asks for the second step.
    const next = await fresh(new TestClient(t.app)).post('/auth/login', { email: user.email, password: user.password });
    expect(next.json().two_factor).toEqual({ methods: ['totp', 'recovery_code'] });
    expect(next.json().two_factor_setup).toBeUndefined();
  });

  it('a role that does not require it, and access tokens of a required role, are not held back', async () => {
    const free = await createUser(db(), { roles: ['users', await role(false)] });
    const login = await fresh(new TestClient(t.app)).post('/auth/login', { email: free.email, password: free.password });
    expect(login.json().two_factor_setup).toBeUndefined();
    expect(login.json().bootstrapData.user.id).toBe(free.id);

    const held = await createUser(db(), { roles: ['users', await role(true)] });
    const { token } = await servicesOf(t.app).auth.accessTokens.create(held.id, 'cli');
    const api = new TestClient(t.app);
    api.bearer = token;
    expect((await api.get(`/api/v1/users/${held.id}`)).statusCode).toBe(200);
  });

  it('personal access tokens keep working for a user with two-factor on', async () => {
    const { user, client } = await signedInUser(t.app);
    fresh(client);
    await enableTotp(client);
    const { token } = await servicesOf(t.app).auth.accessTokens.create(user.id, 'cli');
    const api = new TestClient(t.app);
    api.bearer = token;
    const res = await api.get(`/api/v1/users/${user.id}`);
    expect(res.statusCode, res.body).toBe(200);
    // WebDAV Basic auth with the token as the password.
    const dav = await t.app.inject({
      method: 'PROPFIND',
      url: '/dav/',
      headers: { authorization: `Basic ${Buffer.from(`${user.email}:${token}`).toString('base64')}`, depth: '0' },
    });
    expect(dav.statusCode, dav.body).toBe(207);
  });

  it('the role form sets it; requiring it of your own role needs a factor of your own', async () => {
    const { user: admin, client } = await signedInUser(t.app, { roles: ['admin'] });
    fresh(client);
    const created = await client.post('/api/v1/admin/roles', { name: `Staff ${admin.id}`, permissions: [{ name: 'files.view' }], require_two_factor: true });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().role.require_two_factor).toBe(true);
    const id = created.json().role.id;
    // An edit without the field keeps it.
    const kept = await client.request('PUT', `/api/v1/admin/roles/${id}`, { body: { name: `Staff ${admin.id}`, permissions: [{ name: 'files.view' }] } });
    expect(kept.json().role.require_two_factor).toBe(true);
    const off = await client.request('PUT', `/api/v1/admin/roles/${id}`, {
      body: { name: `Staff ${admin.id}`, permissions: [{ name: 'files.view' }], require_two_factor: false },
    });
    expect(off.json().role.require_two_factor).toBe(false);

    const adminRole = await db().selectFrom('roles').select(['id', 'name']).where('name', '=', 'admin').executeTakeFirstOrThrow();
    const adminPermissions = (await client.get('/api/v1/admin/roles')).json().roles.find((r: { id: number }) => r.id === adminRole.id).permissions;
    const own = await client.request('PUT', `/api/v1/admin/roles/${adminRole.id}`, {
      body: { name: adminRole.name, permissions: adminPermissions, require_two_factor: true },
    });
    expect(own.statusCode).toBe(409);
    expect(own.json().message).toBe('Set up two-factor sign-in for your own account before requiring it for a role you hold.');
  });

  it('Admin → Users shows who has a second factor', async () => {
    const { client } = await signedInUser(t.app, { roles: ['admin'] });
    const withApp = await signedInUser(t.app);
    await enableTotp(fresh(withApp.client));
    const withKey = await createUser(db());
    await db()
      .insertInto('passkeys')
      .values({ id: `key-${withKey.id}`, user_id: withKey.id, name: 'Phone', public_key: 'AA', created_at: new Date().toISOString() })
      .execute();
    const without = await createUser(db());
    for (const [id, expected] of [
      [withApp.user.id, true],
      [withKey.id, true],
      [without.id, false],
    ] as const) {
      expect((await client.get(`/api/v1/admin/users/${id}`)).json().user.two_factor, String(id)).toBe(expected);
      const page = (await client.get(`/api/v1/admin/users?query=${encodeURIComponent((await servicesOf(t.app).users.findById(id))!.email)}`)).json();
      expect(page.pagination.data.map((row: { two_factor: boolean }) => row.two_factor)).toEqual([expected]);
    }
  });

  describe('reset for a user who lost everything', () => {
    const url = (id: number) => `/api/v1/admin/users/${id}/two-factor/reset`;

    it('401 for a guest, 403 without users.update, 404 for nobody', async () => {
      const target = await createUser(db());
      expect((await new TestClient(t.app).post(url(target.id), {})).statusCode).toBe(401);
      const { client: viewer } = await signedInUser(t.app, { permissions: [{ name: 'admin.access' }, { name: 'users.view' }] });
      expect((await viewer.post(url(target.id), {})).statusCode).toBe(403);
      const { user: admin, client } = await signedInUser(t.app, { roles: ['admin'] });
      expect((await client.post(url(999_999), { current_password: admin.password })).statusCode).toBe(404);
    });

    it('needs fresh proof: the password, or the admin’s own second factor; then removes every factor, ends sessions, is recorded', async () => {
      const victim = await signedInUser(t.app);
      fresh(victim.client);
      await enableTotp(victim.client);
      await db()
        .insertInto('passkeys')
        .values({ id: `lost-${victim.user.id}`, user_id: victim.user.id, name: 'Lost', public_key: 'AA', created_at: new Date().toISOString() })
        .execute();
      const { user: admin, client } = await signedInUser(t.app, { roles: ['admin'] });
      fresh(client);

      const asked = await client.post(url(victim.user.id), {});
      expect(asked.statusCode).toBe(422);
      expect(asked.json().errors).toEqual({ current_password: ['Enter your current password to confirm this change.'] });
      const wrong = await client.post(url(victim.user.id), { current_password: 'not it' });
      expect(wrong.json().errors).toEqual({ current_password: ['The current password is incorrect.'] });
      // A second factor the admin does not have proves nothing.
      const none = await client.post(url(victim.user.id), { second_factor: { method: 'totp', code: '123456' } });
      expect(none.statusCode).toBe(422);
      expect(none.json().errors).toEqual({ second_factor: ['Two-factor sign-in is not turned on for your account.'] });
      expect((await client.get(`/api/v1/admin/users/${victim.user.id}`)).json().user.two_factor).toBe(true);

      const ok = await client.post(url(victim.user.id), { current_password: admin.password });
      expect(ok.statusCode, ok.body).toBe(200);
      expect((await client.get(`/api/v1/admin/users/${victim.user.id}`)).json().user.two_factor).toBe(false);
      expect(await db().selectFrom('passkeys').select('id').where('user_id', '=', victim.user.id).execute()).toEqual([]);
      expect(await db().selectFrom('two_factor_recovery_codes').select('code_hash').where('user_id', '=', victim.user.id).execute()).toEqual([]);
      // Whoever held the victim's session is out; the password alone signs in again.
      expect((await victim.client.get('/api/v1/bootstrap-data')).json().data.user).toBe(null);
      const back = await fresh(new TestClient(t.app)).post('/auth/login', { email: victim.user.email, password: victim.user.password });
      expect(back.json().two_factor).toBeUndefined();
      expect(back.json().bootstrapData.user.id).toBe(victim.user.id);
      const logged = await db()
        .selectFrom('admin_activity')
        .selectAll()
        .where('action', '=', 'user.two_factor_reset')
        .where('subject_id', '=', String(victim.user.id))
        .execute();
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({ actor_id: admin.id, subject_type: 'user', details: JSON.stringify({ had_second_factor: true }) });

      // An admin with an authenticator app may give a code of theirs instead of the password.
      const { secret } = await enableTotp(client);
      const other = await signedInUser(t.app);
      await enableTotp(fresh(other.client));
      const badCode = await client.post(url(other.user.id), { second_factor: { method: 'totp', code: '000000' } });
      expect(badCode.statusCode).toBe(422);
      await awayFromStepEnd();
      const byCode = await client.post(url(other.user.id), { second_factor: { method: 'totp', code: codeAt(secret) } });
      expect(byCode.statusCode, byCode.body).toBe(200);
      expect((await client.get(`/api/v1/admin/users/${other.user.id}`)).json().user.two_factor).toBe(false);
    });

    it('not your own account, nor one that holds more than you', async () => {
      const { user: admin, client } = await signedInUser(t.app, { roles: ['admin'] });
      expect((await client.post(url(admin.id), { current_password: admin.password })).statusCode).toBe(409);
      const { user: helper, client: helperClient } = await signedInUser(t.app, {
        permissions: [{ name: 'admin.access' }, { name: 'users.view' }, { name: 'users.update' }],
      });
      const res = await helperClient.post(url(admin.id), { current_password: helper.password });
      expect(res.statusCode).toBe(403);
    });
  });

  describe('a second factor instead of the password, for an account without one (item 5)', () => {
    /** A social-only account (no password), signed in long enough ago that the fresh sign-in no longer counts. */
    async function passwordless() {
      const { user, client } = await signedInUser(t.app);
      fresh(client);
      const { secret, recoveryCodes } = await enableTotp(client);
      await db().updateTable('users').set({ password: null }).where('id', '=', user.id).execute();
      const stale = new Date(Date.now() - 60 * 60 * 1000).toISOString();
      await db().updateTable('sessions').set({ created_at: stale }).where('user_id', '=', user.id).execute();
      return { user, client, secret, recoveryCodes };
    }

    it('email change: refused without proof and with a wrong code; a code from the app does', async () => {
      const { user, client, secret } = await passwordless();
      const email = `changed-${user.id}@example.com`;
      const none = await client.request('PUT', `/api/v1/users/${user.id}`, { body: { email } });
      expect(none.statusCode).toBe(422);
      expect(none.json().errors).toEqual({ current_password: ['Sign in again to confirm this change.'] });
      const wrong = await client.request('PUT', `/api/v1/users/${user.id}`, { body: { email, second_factor: { method: 'totp', code: '000000' } } });
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json().errors).toEqual({ code: ['The code is invalid.'] });
      await awayFromStepEnd();
      const ok = await client.request('PUT', `/api/v1/users/${user.id}`, { body: { email, second_factor: { method: 'totp', code: codeAt(secret) } } });
      expect(ok.statusCode, ok.body).toBe(200);
      expect((await servicesOf(t.app).users.findById(user.id))!.email).toBe(email);
    });

    it('account deletion: a recovery code does, once; a made-up passkey assertion does not', async () => {
      const { user, client, recoveryCodes } = await passwordless();
      const del = (body: unknown) => client.request('DELETE', `/api/v1/users/${user.id}?deleteCurrentUser=true`, { body });
      await client.post('/api/v1/user/two-factor/passkey-options');
      const forged = await del({ second_factor: { method: 'passkey', response: { id: 'nope', rawId: 'nope', type: 'public-key', response: {} } } });
      expect(forged.statusCode).toBe(422);
      expect(forged.json().errors).toEqual({ passkey: ['This passkey could not be verified. Please try again.'] });
      const bad = await del({ second_factor: { method: 'recovery_code', code: 'AAAAA-AAAAA' } });
      expect(bad.json().errors).toEqual({ recovery_code: ['This recovery code is invalid or has already been used.'] });
      expect(await servicesOf(t.app).users.findById(user.id)).toBeTruthy();
      const ok = await del({ second_factor: { method: 'recovery_code', code: recoveryCodes[0] } });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(await servicesOf(t.app).users.findById(user.id)).toBeUndefined();
    });

    it('an account with a password still needs the password', async () => {
      const { user, client } = await signedInUser(t.app);
      fresh(client);
      const { secret } = await enableTotp(client);
      await awayFromStepEnd();
      const res = await client.request('PUT', `/api/v1/users/${user.id}`, {
        body: { email: `pw-${user.id}@example.com`, second_factor: { method: 'totp', code: codeAt(secret) } },
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual({ current_password: ['Enter your current password to confirm this change.'] });
    });
  });
});
