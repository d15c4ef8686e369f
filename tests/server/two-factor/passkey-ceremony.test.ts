import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.js';
import { signedInUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';
import { SoftAuthenticator } from './soft-authenticator.js';

/** Whole passkey ceremonies against a software authenticator (issue 36): register, then sign in with it alone. */
describe('passkey ceremonies', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function registered() {
    const { user, client } = await signedInUser(t.app);
    const { options } = (await client.post('/api/v1/user/passkeys/options')).json();
    const key = new SoftAuthenticator(new URL(t.config.appUrl).origin);
    const res = await client.post('/api/v1/user/passkeys', { name: 'Laptop', response: key.create(options) });
    return { user, client, key, res };
  }

  it('registers a passkey, then signs in with it and no password; the counter moves and a replay is refused', async () => {
    const { user, key, res } = await registered();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().passkey).toMatchObject({ id: key.id, name: 'Laptop', last_used_at: null });

    const browser = new TestClient(t.app);
    const { options } = (await browser.post('/auth/passkey/options')).json();
    const assertion = key.get(options);
    const signedIn = await browser.post('/auth/passkey', { response: assertion });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json().bootstrapData.user.id).toBe(user.id);
    const stored = await servicesOf(t.app)
      .db.kysely.selectFrom('passkeys')
      .select(['counter', 'last_used_at'])
      .where('id', '=', key.id)
      .executeTakeFirstOrThrow();
    expect(Number(stored.counter)).toBe(1);
    expect(stored.last_used_at).not.toBe(null);

    // The same assertion again: its ceremony is spent.
    const again = new TestClient(t.app);
    await again.post('/auth/passkey/options');
    expect((await again.post('/auth/passkey', { response: assertion })).statusCode).toBe(422);
  });

  it('refuses an assertion without user verification, and one from another origin', async () => {
    const { key } = await registered();
    const browser = new TestClient(t.app);
    let { options } = (await browser.post('/auth/passkey/options')).json();
    expect((await browser.post('/auth/passkey', { response: key.get(options, { userVerified: false }) })).statusCode).toBe(422);
    ({ options } = (await browser.post('/auth/passkey/options')).json());
    expect((await browser.post('/auth/passkey', { response: key.get(options, { origin: 'https://evil.example' }) })).statusCode).toBe(422);
    expect(browser.cookies.has('drive_session')).toBe(false);
  });

  it('a passkey assertion confirms an account change of an account without a password (item 5)', async () => {
    const { user, client, key } = await registered();
    const db = servicesOf(t.app).db.kysely;
    await db.updateTable('users').set({ password: null }).where('id', '=', user.id).execute();
    await db
      .updateTable('sessions')
      .set({ created_at: new Date(Date.now() - 60 * 60 * 1000).toISOString() })
      .where('user_id', '=', user.id)
      .execute();
    const email = `passkey-proof-${user.id}@example.com`;
    expect((await client.request('PUT', `/api/v1/users/${user.id}`, { body: { email } })).statusCode).toBe(422);
    const { options } = (await client.post('/api/v1/user/two-factor/passkey-options')).json();
    expect(options.allowCredentials.map((c: { id: string }) => c.id)).toEqual([key.id]);
    const ok = await client.request('PUT', `/api/v1/users/${user.id}`, { body: { email, second_factor: { method: 'passkey', response: key.get(options) } } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await servicesOf(t.app).users.findById(user.id))!.email).toBe(email);
  });

  it('a registration without user verification is refused', async () => {
    const { client } = await signedInUser(t.app);
    const { options } = (await client.post('/api/v1/user/passkeys/options')).json();
    const key = new SoftAuthenticator(new URL(t.config.appUrl).origin);
    const res = await client.post('/api/v1/user/passkeys', { name: 'No PIN', response: key.create(options, { userVerified: false }) });
    expect(res.statusCode).toBe(422);
  });
});
