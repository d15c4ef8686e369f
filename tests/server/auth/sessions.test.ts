import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.js';
import { createUser, type CreatedUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

describe('sessions, XSRF and tokens', () => {
  let t: TestApp;
  let user: CreatedUser;

  beforeAll(async () => {
    t = await createTestApp({ env: { TRUST_PROXY: 'true' } });
    user = await createUser(servicesOf(t.app).db.kysely);
  });
  afterAll(() => t.close());

  const sessionCookie = (res: { cookies: { name: string }[] }) =>
    res.cookies.find((c) => c.name === 'drive_session') as
      { name: string; value: string; httpOnly?: boolean; sameSite?: string; secure?: boolean; maxAge?: number } | undefined;

  it('gives every browser a readable XSRF-TOKEN cookie', async () => {
    const res = await new TestClient(t.app).get('/api/v1/bootstrap-data');
    const xsrf = res.cookies.find((c) => c.name === 'XSRF-TOKEN') as { httpOnly?: boolean; sameSite?: string } | undefined;
    expect(xsrf).toBeDefined();
    expect(xsrf?.httpOnly).toBeFalsy();
    expect(xsrf?.sameSite).toBe('Lax');
  });

  it('refuses unsafe methods without the X-XSRF-TOKEN header', async () => {
    const client = new TestClient(t.app);
    await client.get('/api/v1/health');
    client.xsrf = false;
    const res = await client.post('/auth/login', { email: user.email, password: user.password });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/CSRF token mismatch/);
  });

  it('refuses a header that does not match the cookie', async () => {
    const client = new TestClient(t.app);
    await client.get('/api/v1/health');
    client.xsrf = false;
    const res = await client.post('/auth/login', { email: user.email, password: user.password }, { 'x-xsrf-token': 'forged' });
    expect(res.statusCode).toBe(403);
  });

  it('signs in with an httpOnly, SameSite=Lax session cookie that is not Secure over http', async () => {
    const client = new TestClient(t.app);
    const res = await client.login(user.email, user.password);
    const cookie = sessionCookie(res);
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe('Lax');
    expect(cookie?.secure).toBeFalsy();
    expect(cookie?.maxAge).toBe(30 * 24 * 60 * 60);
    expect(res.json().bootstrapData.user.email).toBe(user.email);
    expect((await client.get('/api/v1/bootstrap-data')).json().data.user.id).toBe(user.id);
  });

  it('marks the session cookie Secure behind https', async () => {
    const client = new TestClient(t.app);
    const res = await client.post('/auth/login', { email: user.email, password: user.password }, { 'x-forwarded-proto': 'https' });
    expect(sessionCookie(res)?.secure).toBe(true);
  });

  it('remembers the session when the login does not say (spec §9: remember defaults on)', async () => {
    const client = new TestClient(t.app);
    const res = await client.post('/auth/login', { email: user.email, password: user.password });
    expect(sessionCookie(res)?.maxAge).toBe(30 * 24 * 60 * 60);
  });

  it('gives a browser-session cookie when remember is off', async () => {
    const res = await new TestClient(t.app).login(user.email, user.password, false);
    expect(sessionCookie(res)?.maxAge).toBeUndefined();
  });

  it('stores sessions hashed, never the cookie value', async () => {
    const client = new TestClient(t.app);
    await client.login(user.email, user.password);
    const token = client.cookies.get('drive_session')!;
    const rows = await servicesOf(t.app).db.kysely.selectFrom('sessions').select('id').execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.map((r) => r.id)).not.toContain(token);
  });

  it('rotates the session on login and ends it on logout', async () => {
    const client = new TestClient(t.app);
    await client.login(user.email, user.password);
    const first = client.cookies.get('drive_session')!;
    await client.login(user.email, user.password);
    const second = client.cookies.get('drive_session')!;
    expect(second).not.toBe(first);

    const stale = new TestClient(t.app);
    stale.cookies.set('drive_session', first);
    expect((await stale.get('/api/v1/bootstrap-data')).json().data.user).toBeNull();

    const out = await client.post('/auth/logout');
    expect(out.statusCode).toBe(200);
    expect(out.json().bootstrapData.user).toBeNull();
    const replay = new TestClient(t.app);
    replay.cookies.set('drive_session', second);
    expect((await replay.get('/api/v1/bootstrap-data')).json().data.user).toBeNull();
  });

  it('refuses wrong credentials with a field error on email', async () => {
    const res = await new TestClient(t.app).post('/auth/login', { email: user.email, password: 'wrong password' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ email: ['These credentials do not match our records.'] });
  });

  it('authenticates personal access tokens without the XSRF check', async () => {
    const { token } = await servicesOf(t.app).auth.accessTokens.create(user.id, 'cli');
    const client = new TestClient(t.app);
    client.xsrf = false;
    client.bearer = token;
    const res = await client.post('/api/v1/users/me/locale', { locale: 'tr' });
    expect(res.statusCode).toBe(200);
    const row = await servicesOf(t.app).db.kysely.selectFrom('users').select('language').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.language).toBe('tr');
  });

  it('treats an invalid bearer token as signed out and still requires XSRF for it', async () => {
    const client = new TestClient(t.app);
    client.xsrf = false;
    client.bearer = '1|not-the-secret';
    expect((await client.get('/api/v1/bootstrap-data')).json().data.user).toBeNull();
    expect((await client.post('/api/v1/users/me/locale', { locale: 'tr' })).statusCode).toBe(403);
  });
});
