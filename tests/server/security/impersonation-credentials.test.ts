import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trLines } from '../../../server/modules/localizations/lines/tr.js';
import { TestClient } from '../support/client.js';
import { createUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

const REFUSED = 'You cannot create access tokens while signed in as someone else.';

/**
 * Issue 30 finding 11: an admin signed in as a user created a personal access
 * token for them that kept working after "stop". Such tokens are refused: a
 * credential made then would outlive the impersonation whatever ends it.
 */
describe('signing in as someone makes no lasting credential for them', () => {
  let t: TestApp;
  const db = () => servicesOf(t.app).db.kysely;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const impersonating = async (targetOptions: Parameters<typeof createUser>[1] = {}) => {
    const admin = await createUser(db(), { roles: ['admin'] });
    const target = await createUser(db(), targetOptions);
    const client = new TestClient(t.app);
    await client.login(admin.email, admin.password);
    const started = await client.post(`/api/v1/admin/users/${target.id}/impersonate`, { current_password: admin.password });
    expect(started.statusCode, started.body).toBe(200);
    return { admin, target, client };
  };
  const tokensOf = async (userId: number) => db().selectFrom('personal_access_tokens').select('id').where('user_id', '=', userId).execute();

  it('refuses a token while impersonating, in the caller’s language, and none is left after stop', async () => {
    const { target, client } = await impersonating();
    const refused = await client.post('/api/v1/access-tokens', { name: 'backdoor' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(REFUSED);
    expect(await tokensOf(target.id)).toEqual([]);
    // Listing the user's tokens (and so revoking a leaked one) stays possible for support.
    expect((await client.get('/api/v1/access-tokens')).statusCode).toBe(200);

    await client.post('/api/v1/users/me/locale', { locale: 'tr' });
    const turkish = await client.post('/api/v1/access-tokens', { name: 'backdoor' });
    expect(turkish.json().message).toBe(trLines[REFUSED]);

    await client.post('/api/v1/admin/impersonation/stop');
    expect(await tokensOf(target.id)).toEqual([]);
  });

  it('the user themself still creates tokens; guests get 401', async () => {
    const user = await createUser(db());
    const client = new TestClient(t.app);
    await client.login(user.email, user.password);
    expect((await client.post('/api/v1/access-tokens', { name: 'mine' })).statusCode).toBe(200);
    expect((await new TestClient(t.app).post('/api/v1/access-tokens', { name: 'x' })).statusCode).toBe(401);
  });

  it('an impersonated session is no recent sign-in of a user without a password', async () => {
    const { target, client } = await impersonating();
    await db().updateTable('users').set({ password: null }).where('id', '=', target.id).execute();
    const res = await client.request('PUT', '/api/v1/users/me', { body: { email: `taken-${target.id}@example.com` } });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ current_password: ['Sign in again to confirm this change.'] });
    expect((await servicesOf(t.app).users.findById(target.id))?.email).toBe(target.email);
  });
});
