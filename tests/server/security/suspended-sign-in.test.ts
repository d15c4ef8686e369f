import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.js';
import { createUser } from '../support/factories.js';
import { newClaims, startOAuthPeer, type OAuthPeer } from '../support/oauth-peer.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

const SUSPENDED = 'This account is suspended.';

/** Issue 31 item 3: every way in goes through one session start, and that start refuses a suspended account. */
describe('a suspended account cannot sign in by any method', () => {
  let t: TestApp;
  let provider: OAuthPeer;
  let admin: TestClient;
  let adminUser: Awaited<ReturnType<typeof createUser>>;
  const db = () => servicesOf(t.app).db.kysely;

  beforeAll(async () => {
    t = await createTestApp();
    provider = await startOAuthPeer(t.app);
    adminUser = await createUser(db(), { roles: ['admin'] });
    admin = new TestClient(t.app);
    await admin.login(adminUser.email, adminUser.password);
  });
  afterAll(async () => {
    await t.close();
    await provider.stop();
  });
  beforeEach(() => {
    provider.claims = newClaims();
  });

  const suspend = async (userId: number) => {
    const res = await admin.post('/api/v1/admin/users/bulk-update', { ids: [userId], action: 'suspend' });
    expect(res.statusCode, res.body).toBe(200);
  };
  const sessionsOf = async (userId: number) => (await db().selectFrom('sessions').select('id').where('user_id', '=', userId).execute()).length;
  const signedInUser = async (client: TestClient) => (await client.get('/api/v1/bootstrap-data')).json().data.user;

  it('password: a wrong password says nothing of the suspension, the right one is refused with the reason, no session starts', async () => {
    const user = await createUser(db());
    await suspend(user.id);
    const client = new TestClient(t.app);
    const wrong = await client.post('/auth/login', { email: user.email, password: 'not it' });
    expect(wrong.json().errors).toEqual({ email: ['These credentials do not match our records.'] });
    const right = await client.post('/auth/login', { email: user.email, password: user.password });
    expect(right.statusCode).toBe(422);
    expect(right.json().errors).toEqual({ email: [SUSPENDED] });
    expect(await sessionsOf(user.id)).toBe(0);
    expect(await signedInUser(client)).toBeNull();
  });

  it('social sign-in through a linked profile: the popup answers ERROR with the reason, no session starts', async () => {
    const first = await provider.runPopup(new TestClient(t.app), '/secure/auth/social/google/login');
    expect(first.status).toBe('SUCCESS');
    const userId = first.callbackData.bootstrapData!.user!.id;
    await suspend(userId);

    const client = new TestClient(t.app);
    const message = await provider.runPopup(client, '/secure/auth/social/google/login');
    expect(message).toMatchObject({ status: 'ERROR', callbackData: { message: SUSPENDED } });
    expect(message.callbackData.bootstrapData).toBeUndefined();
    expect(await sessionsOf(userId)).toBe(0);
    expect(await signedInUser(client)).toBeNull();
  });

  it('social sign-in linking an existing account with its password: refused after the password, nothing linked, no session', async () => {
    const user = await createUser(db(), { email: provider.claims.email as string });
    await suspend(user.id);
    const client = new TestClient(t.app);
    // The prompt comes first: whether an account is suspended is told only to whoever gives its password.
    expect((await provider.runPopup(client, '/secure/auth/social/google/login')).status).toBe('REQUEST_PASSWORD');
    const wrong = await client.post('/secure/auth/social/connect', { password: 'not it' });
    expect(wrong.json().errors).toEqual({ password: ['The password is incorrect.'] });
    const right = await client.post('/secure/auth/social/connect', { password: user.password });
    expect(right.statusCode).toBe(422);
    expect(right.json().errors).toEqual({ password: [SUSPENDED] });

    const linked = await db().selectFrom('social_profiles').select('id').where('user_id', '=', user.id).execute();
    expect(linked).toEqual([]);
    expect(await sessionsOf(user.id)).toBe(0);
    expect(await signedInUser(client)).toBeNull();
  });

  it('impersonation: refused for a suspended user, and a suspension ends an impersonation already running', async () => {
    const suspended = await createUser(db());
    await suspend(suspended.id);
    const refused = await admin.post(`/api/v1/admin/users/${suspended.id}/impersonate`, { current_password: adminUser.password });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(SUSPENDED);
    expect(await sessionsOf(suspended.id)).toBe(0);

    const user = await createUser(db());
    const supporter = await createUser(db(), { roles: ['admin'] });
    const support = new TestClient(t.app);
    await support.login(supporter.email, supporter.password);
    expect((await support.post(`/api/v1/admin/users/${user.id}/impersonate`, { current_password: supporter.password })).statusCode).toBe(200);
    expect((await signedInUser(support))?.id).toBe(user.id);
    await suspend(user.id);
    expect((await support.get('/api/v1/users/me')).statusCode).toBe(401);
    expect(await sessionsOf(user.id)).toBe(0);
  });
});
