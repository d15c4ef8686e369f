import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.js';
import { createUser, withoutPermissions } from '../support/factories.js';
import { setSettingsForTest } from '../support/settings.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

describe('API documentation (spec §2 route api-docs)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('sends a signed-out browser to /login and refuses other signed-out callers', async () => {
    const page = await new TestClient(t.app).get('/api/v1/docs', { accept: 'text/html' });
    expect(page.statusCode).toBe(302);
    expect(page.headers.location).toBe('/login?redirect=%2Fapi-docs');
    expect((await new TestClient(t.app).get('/api/v1/docs/json')).statusCode).toBe(403);
  });

  it('shows the documentation to a user with api.access', async () => {
    const user = await createUser(servicesOf(t.app).db.kysely);
    const client = new TestClient(t.app);
    await client.login(user.email, user.password);
    const res = await client.get('/api/v1/docs', { accept: 'text/html' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(/swagger/i);
  });

  it('refuses a user without api.access', async () => {
    const db = servicesOf(t.app).db.kysely;
    const user = await createUser(db);
    // A role of the user's own: taking api.access from the shared "users" role would refuse every other test's users too.
    await withoutPermissions(db, user.id, ['api.access']);
    const client = new TestClient(t.app);
    await client.login(user.email, user.password);
    expect((await client.get('/api/v1/docs', { accept: 'text/html' })).statusCode).toBe(403);
  });

  it('is not there when the API feature is not integrated', async () => {
    await setSettingsForTest(t.app, { 'api.integrated': false });
    expect((await new TestClient(t.app).get('/api/v1/docs', { accept: 'text/html' })).statusCode).toBe(404);
  });
});
