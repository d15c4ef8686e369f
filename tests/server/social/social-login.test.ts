import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.js';
import { createUser } from '../support/factories.js';
import { newClaims, popupMessage, startOAuthPeer, type OAuthPeer } from '../support/oauth-peer.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

describe('social sign-in through a real OAuth/OIDC provider (oauth2-mock-server)', () => {
  let t: TestApp;
  let provider: OAuthPeer;
  let claims: Record<string, unknown>;
  const runPopup = (client: TestClient, path: string) => provider.runPopup(client, path);

  beforeAll(async () => {
    t = await createTestApp();
    provider = await startOAuthPeer(t.app);
  });
  afterAll(async () => {
    await t.close();
    await provider.stop();
  });
  beforeEach(() => {
    claims = provider.claims = newClaims();
  });

  it('creates an account for a new Google user and signs it in', async () => {
    const client = new TestClient(t.app);
    const message = await runPopup(client, '/secure/auth/social/google/login');
    expect(message).toMatchObject({ type: 'social-auth', status: 'SUCCESS' });
    expect(message.callbackData.bootstrapData?.user?.email).toBe(claims.email);
    const { data } = (await client.get('/api/v1/bootstrap-data')).json();
    expect(data.user).toMatchObject({ email: claims.email, first_name: 'Pat', last_name: 'Doe', email_verified_at: expect.any(String) });
  });

  it('signs a returning user in through the linked profile', async () => {
    await runPopup(new TestClient(t.app), '/secure/auth/social/google/login');
    const again = new TestClient(t.app);
    expect((await runPopup(again, '/secure/auth/social/google/login')).status).toBe('SUCCESS');
    const rows = await servicesOf(t.app)
      .db.kysely.selectFrom('users')
      .select('id')
      .where('email', '=', claims.email as string)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('works with a plain OAuth 2 provider (Facebook) through its profile endpoint', async () => {
    const client = new TestClient(t.app);
    const message = await runPopup(client, '/secure/auth/social/facebook/login');
    expect(message.status).toBe('SUCCESS');
    expect(message.callbackData.bootstrapData?.user?.email).toBe(claims.email);
  });

  it('asks for the password of an existing account before linking it, then signs in', async () => {
    const existing = await createUser(servicesOf(t.app).db.kysely, { email: claims.email as string });
    const client = new TestClient(t.app);
    const message = await runPopup(client, '/secure/auth/social/google/login');
    expect(message).toMatchObject({ status: 'REQUEST_PASSWORD', callbackData: { email: existing.email } });
    expect((await client.get('/api/v1/bootstrap-data')).json().data.user).toBeNull();

    const wrong = await client.post('/secure/auth/social/connect', { password: 'not it' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors).toEqual({ password: ['The password is incorrect.'] });
    const right = await client.post('/secure/auth/social/connect', { password: existing.password });
    expect(right.statusCode).toBe(200);
    expect(right.json().bootstrapData.user.id).toBe(existing.id);
    // Linked now: the next sign-in needs no password.
    expect((await runPopup(new TestClient(t.app), '/secure/auth/social/google/login')).status).toBe('SUCCESS');
  });

  it('answers ALREADY_LOGGED_IN to a signed-in user', async () => {
    const user = await createUser(servicesOf(t.app).db.kysely);
    const client = new TestClient(t.app);
    await client.login(user.email, user.password);
    expect((await runPopup(client, '/secure/auth/social/google/login')).status).toBe('ALREADY_LOGGED_IN');
  });

  it('refuses a callback with a state this browser did not start', async () => {
    const client = new TestClient(t.app);
    const start = await client.get('/secure/auth/social/google/login');
    const authorize = await fetch(start.headers.location as string, { redirect: 'manual' });
    const back = new URL(authorize.headers.get('location')!);
    back.searchParams.set('state', 'forged');
    const message = popupMessage((await client.get(back.pathname + back.search)).body);
    expect(message.status).toBe('ERROR');
    expect(message.callbackData.message).toMatch(/invalid or has expired/);

    const stranger = new TestClient(t.app);
    const replay = popupMessage((await stranger.get(`/secure/auth/social/google/callback?code=abc&state=xyz`)).body);
    expect(replay.status).toBe('ERROR');
  });

  it('connects and disconnects a provider from account settings', async () => {
    const user = await createUser(servicesOf(t.app).db.kysely);
    const client = new TestClient(t.app);
    await client.login(user.email, user.password);
    const message = await runPopup(client, '/secure/auth/social/google/connect');
    expect(message.status).toBe('SUCCESS');
    const profiles = (await client.get('/api/v1/users/me?with=social_profiles')).json().user.social_profiles;
    expect(profiles).toEqual([expect.objectContaining({ service_name: 'google' })]);
    expect((await client.post('/secure/auth/social/google/disconnect')).statusCode).toBe(200);
    expect((await client.get('/api/v1/users/me?with=social_profiles')).json().user.social_profiles).toEqual([]);
  });

  it('keeps a password-less user from disconnecting their only sign-in method', async () => {
    const client = new TestClient(t.app);
    await runPopup(client, '/secure/auth/social/google/login');
    const res = await client.post('/secure/auth/social/google/disconnect');
    expect(res.statusCode).toBe(403);
  });

  it('answers ERROR when a provider is not enabled', async () => {
    await servicesOf(t.app).settings.set({ 'social.google.enable': false });
    const message = popupMessage((await new TestClient(t.app).get('/secure/auth/social/google/login')).body);
    await servicesOf(t.app).settings.set({ 'social.google.enable': true });
    expect(message).toMatchObject({ status: 'ERROR', callbackData: { message: 'This sign-in method is not enabled.' } });
  });

  it('says why in the visitor’s language', async () => {
    await servicesOf(t.app).settings.set({ 'social.facebook.enable': false });
    const client = new TestClient(t.app);
    await client.post('/api/v1/users/me/locale', { locale: 'tr' });
    const message = popupMessage((await client.get('/secure/auth/social/facebook/login')).body);
    await servicesOf(t.app).settings.set({ 'social.facebook.enable': true });
    expect(message).toMatchObject({ status: 'ERROR', callbackData: { message: 'Bu giriş yöntemi etkin değil.' } });
  });
});
