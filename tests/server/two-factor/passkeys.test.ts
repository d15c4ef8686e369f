import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.js';
import { createUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

// Passkey routes (issue 36). The ceremonies themselves run in Chromium with the DevTools
// virtual authenticator (tests/e2e/two-factor.spec.ts); here: who may call what.
describe('passkeys', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const routes: [string, string, unknown?][] = [
    ['GET', '/api/v1/user/passkeys'],
    ['POST', '/api/v1/user/passkeys/options'],
    ['POST', '/api/v1/user/passkeys', { name: 'Laptop', response: {} }],
    ['PUT', '/api/v1/user/passkeys/abc', { name: 'Laptop' }],
    ['DELETE', '/api/v1/user/passkeys/abc'],
  ];

  it('401 for a guest, 403 with an access token', async () => {
    const guest = new TestClient(t.app);
    for (const [method, url, body] of routes) expect((await guest.request(method as 'GET', url, { body })).statusCode, url).toBe(401);
    const user = await createUser(servicesOf(t.app).db.kysely);
    const { token } = await servicesOf(t.app).auth.accessTokens.create(user.id, 'cli');
    const api = new TestClient(t.app);
    api.bearer = token;
    for (const [method, url, body] of routes) expect((await api.request(method as 'GET', url, { body })).statusCode, url).toBe(403);
  });

  it("404 renaming or removing a passkey that is not the caller's", async () => {
    const owner = await createUser(servicesOf(t.app).db.kysely);
    await servicesOf(t.app)
      .db.kysely.insertInto('passkeys')
      .values({ id: 'cred-of-owner', user_id: owner.id, name: 'Phone', public_key: 'AA', created_at: new Date().toISOString() })
      .execute();
    const other = await createUser(servicesOf(t.app).db.kysely);
    const client = new TestClient(t.app);
    await client.login(other.email, other.password);
    expect((await client.request('PUT', '/api/v1/user/passkeys/cred-of-owner', { body: { name: 'Mine' } })).statusCode).toBe(404);
    expect((await client.request('DELETE', '/api/v1/user/passkeys/cred-of-owner')).statusCode).toBe(404);
    expect((await client.get('/api/v1/user/passkeys')).json().passkeys).toEqual([]);
  });

  it('registration options ask for a discoverable passkey with user verification, and exclude the ones held', async () => {
    const user = await createUser(servicesOf(t.app).db.kysely);
    await servicesOf(t.app)
      .db.kysely.insertInto('passkeys')
      .values({ id: 'held', user_id: user.id, name: 'Phone', public_key: 'AA', created_at: new Date().toISOString() })
      .execute();
    const client = new TestClient(t.app);
    // The password sign-in meets the passkey as a second factor first.
    const first = await client.post('/auth/login', { email: user.email, password: user.password });
    expect(first.json().two_factor).toEqual({ methods: ['passkey'] });
    expect((await client.get('/api/v1/user/passkeys')).statusCode).toBe(401);
    await servicesOf(t.app).db.kysely.deleteFrom('passkeys').where('id', '=', 'held').execute();
    await client.login(user.email, user.password);
    await servicesOf(t.app)
      .db.kysely.insertInto('passkeys')
      .values({ id: 'held', user_id: user.id, name: 'Phone', public_key: 'AA', created_at: new Date().toISOString() })
      .execute();
    const { options } = (await client.post('/api/v1/user/passkeys/options')).json();
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
    expect(options.excludeCredentials.map((c: { id: string }) => c.id)).toEqual(['held']);
    expect(options.rp.id).toBe('localhost');
  });

  it('a made-up assertion signs nobody in, and a ceremony is used once', async () => {
    const client = new TestClient(t.app);
    expect((await client.post('/auth/passkey', { response: { id: 'x' } })).statusCode).toBe(401);
    const { options } = (await client.post('/auth/passkey/options')).json();
    expect(options.userVerification).toBe('required');
    expect(options.allowCredentials).toEqual([]);
    const forged = await client.post('/auth/passkey', { response: { id: 'held', rawId: 'held', type: 'public-key', response: {} } });
    expect(forged.statusCode).toBe(422);
    expect(forged.json().errors.passkey).toEqual(['This passkey could not be verified. Please try again.']);
    expect(client.cookies.has('drive_session')).toBe(false);
  });
});
