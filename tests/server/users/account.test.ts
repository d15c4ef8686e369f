import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureFirstAdmin } from '../../../server/modules/setup/first-admin.js';
import { TestClient } from '../support/client.js';
import { signedInUser, uploadFile } from '../support/drive-factories.js';
import { createUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

describe('account calls', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await ensureFirstAdmin(servicesOf(t.app).db.kysely, { email: 'admin@example.com', password: 'admin password' });
  });
  afterAll(() => t.close());

  const signedIn = async () => {
    const user = await createUser(servicesOf(t.app).db.kysely);
    const client = new TestClient(t.app);
    await client.login(user.email, user.password);
    return { user, client };
  };

  it('should require authentication', async () => {
    const client = new TestClient(t.app);
    for (const [method, url] of [
      ['GET', '/api/v1/users/me'],
      ['PUT', '/api/v1/users/me'],
      ['POST', '/api/v1/users/me/password/change'],
      ['DELETE', '/api/v1/users/me?deleteCurrentUser=true'],
      ['POST', '/api/v1/users/me/avatar'],
      ['GET', '/api/v1/access-tokens'],
    ] as const) {
      const res = await client.request(method, url, { body: method === 'GET' ? undefined : {} });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('loads the current user with roles, social profiles and tokens', async () => {
    const { user, client } = await signedIn();
    await servicesOf(t.app).auth.accessTokens.create(user.id, 'laptop');
    const res = await client.get('/api/v1/users/me?with=roles,social_profiles,tokens');
    expect(res.statusCode).toBe(200);
    const body = res.json().user;
    expect(body).toMatchObject({ id: user.id, email: user.email, social_profiles: [], roles: [{ name: 'users' }] });
    expect(body.tokens).toEqual([expect.objectContaining({ name: 'laptop' })]);
    expect(JSON.stringify(body)).not.toMatch(/token_hash|password/);
  });

  it('updates profile and preferences, and refuses unknown countries, zones and languages', async () => {
    const { client } = await signedIn();
    const ok = await client.request('PUT', '/api/v1/users/me', {
      body: {
        first_name: 'Grace',
        last_name: 'Hopper',
        company: 'Navy',
        country: 'US',
        timezone: 'America/New_York',
        language: 'tr',
        mobile: '+1 555 123 4567',
      },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user).toMatchObject({ display_name: 'Grace Hopper', company: 'Navy', country: 'us', timezone: 'America/New_York', language: 'tr' });

    // The user now reads Turkish, so the server answers in it.
    const bad = await client.request('PUT', '/api/v1/users/me', { body: { country: 'zz', timezone: 'Mars/Olympus', language: 'xx' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toEqual({
      country: ['Seçilen ülke geçersiz.'],
      timezone: ['Seçilen saat dilimi geçersiz.'],
      language: ['Bu dil kullanılamıyor.'],
    });
    const typed = await client.request('PUT', '/api/v1/users/me', { body: { email: 'nope', email2: 'also nope' } });
    expect(Object.keys(typed.json().errors).sort()).toEqual(['email', 'email2']);
  });

  it('refuses an email another account uses', async () => {
    const { client } = await signedIn();
    const other = await createUser(servicesOf(t.app).db.kysely);
    const res = await client.request('PUT', '/api/v1/users/me', { body: { email: other.email } });
    expect(res.json().errors).toEqual({ email: ['The email has already been taken.'] });
  });

  it('changes the password, keeping this session and ending the others', async () => {
    const { user, client } = await signedIn();
    const elsewhere = new TestClient(t.app);
    await elsewhere.login(user.email, user.password);

    const wrong = await client.post('/api/v1/users/me/password/change', {
      current_password: 'not it',
      new_password: 'new password 1',
      new_password_confirmation: 'new password 1',
    });
    expect(wrong.json().errors).toEqual({ current_password: ['The current password is incorrect.'] });

    const res = await client.post('/api/v1/users/me/password/change', {
      current_password: user.password,
      new_password: 'new password 1',
      new_password_confirmation: 'new password 1',
    });
    expect(res.json()).toEqual({ message: 'Password changed' });
    expect((await client.get('/api/v1/bootstrap-data')).json().data.user.id).toBe(user.id);
    expect((await elsewhere.get('/api/v1/bootstrap-data')).json().data.user).toBeNull();
  });

  it('requires all three password fields (spec §5)', async () => {
    const { client } = await signedIn();
    const res = await client.post('/api/v1/users/me/password/change', {});
    expect(Object.keys(res.json().errors).sort()).toEqual(['current_password', 'new_password', 'new_password_confirmation']);
  });

  it('deletes one’s own account only with deleteCurrentUser=true, and signs it out', async () => {
    const { user, client } = await signedIn();
    expect((await client.request('DELETE', `/api/v1/users/${user.id}`, { body: { current_password: user.password } })).statusCode).toBe(422);
    const res = await client.request('DELETE', `/api/v1/users/${user.id}?deleteCurrentUser=true`, { body: { current_password: user.password } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Account deleted' });
    expect((await client.get('/api/v1/bootstrap-data')).json().data.user).toBeNull();
    expect(await servicesOf(t.app).users.findById(user.id)).toBeUndefined();
    expect(await servicesOf(t.app).db.kysely.selectFrom('sessions').selectAll().where('user_id', '=', user.id).execute()).toEqual([]);
  });

  it('takes the account’s files and their bytes with it, and leaves other users’ files alone', async () => {
    const { user, client } = await signedInUser(t.app);
    const other = await createUser(servicesOf(t.app).db.kysely);
    const mine = await uploadFile(t.app, user, { name: 'mine.txt', content: 'my bytes' });
    const theirs = await uploadFile(t.app, other, { name: 'theirs.txt', content: 'their bytes' });
    const disk = servicesOf(t.app).drive.disk;
    const key = (e: { disk_prefix: string | null; file_name: string | null }) => `${e.disk_prefix}/${e.file_name}`;
    expect(await disk.stat(key(mine))).not.toBeNull();

    await client.request('DELETE', `/api/v1/users/${user.id}?deleteCurrentUser=true`, { body: { current_password: user.password } });
    expect(await disk.stat(key(mine))).toBeNull();
    expect(await disk.stat(key(theirs))).not.toBeNull();
    const rows = await servicesOf(t.app).db.kysely.selectFrom('file_entries').select('owner_id').execute();
    expect(rows.map((r) => r.owner_id)).not.toContain(user.id);
  });

  it('forbids acting on another user’s account', async () => {
    const { client } = await signedIn();
    const other = await createUser(servicesOf(t.app).db.kysely);
    expect((await client.get(`/api/v1/users/${other.id}`)).statusCode).toBe(403);
    expect((await client.request('DELETE', `/api/v1/users/${other.id}?deleteCurrentUser=true`)).statusCode).toBe(403);
    expect((await client.request('PUT', `/api/v1/users/${other.id}`, { body: { first_name: 'X' } })).statusCode).toBe(403);
  });

  it('keeps the only admin from deleting their account', async () => {
    const client = new TestClient(t.app);
    await client.login('admin@example.com', 'admin password');
    const res = await client.request('DELETE', '/api/v1/users/me?deleteCurrentUser=true', { body: { current_password: 'admin password' } });
    expect(res.statusCode).toBe(409);
  });
});

describe('personal access tokens', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('are shown once, listed without their secret, work as Bearer and stop working when revoked', async () => {
    const user = await createUser(servicesOf(t.app).db.kysely);
    const client = new TestClient(t.app);
    await client.login(user.email, user.password);
    const created = await client.post('/api/v1/access-tokens', { name: 'ci' });
    expect(created.statusCode).toBe(200);
    const { token, plainTextToken } = created.json();
    expect(plainTextToken).toMatch(/^\d+\|[A-Za-z0-9_-]{40,}$/);
    const list = (await client.get('/api/v1/access-tokens')).json().tokens;
    expect(list).toEqual([token]);
    expect(JSON.stringify(list)).not.toContain(plainTextToken.split('|')[1]);

    const api = new TestClient(t.app);
    api.xsrf = false;
    api.bearer = plainTextToken;
    expect((await api.get('/api/v1/users/me')).json().user.id).toBe(user.id);

    expect((await client.request('DELETE', `/api/v1/access-tokens/${token.id}`)).statusCode).toBe(200);
    expect((await api.get('/api/v1/users/me')).statusCode).toBe(401);
  });

  it('stop working once expired', async () => {
    const user = await createUser(servicesOf(t.app).db.kysely);
    const { token } = await servicesOf(t.app).auth.accessTokens.create(user.id, 'old', new Date(Date.now() - 1000).toISOString());
    const api = new TestClient(t.app);
    api.xsrf = false;
    api.bearer = token;
    expect((await api.get('/api/v1/users/me')).statusCode).toBe(401);
  });

  it('cannot revoke someone else’s token', async () => {
    const owner = await createUser(servicesOf(t.app).db.kysely);
    const { id } = await servicesOf(t.app).auth.accessTokens.create(owner.id, 'mine');
    const intruder = await createUser(servicesOf(t.app).db.kysely);
    const client = new TestClient(t.app);
    await client.login(intruder.email, intruder.password);
    expect((await client.request('DELETE', `/api/v1/access-tokens/${id}`)).statusCode).toBe(404);
    expect(await servicesOf(t.app).auth.accessTokens.list(owner.id)).toHaveLength(1);
  });
});
