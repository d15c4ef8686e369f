import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCredentials, ensureDemoAccounts } from '../../../server/modules/setup/demo.js';
import { TestClient } from '../support/client.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

describe('demo mode', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('hands out no credentials when the site is not a demo', async () => {
    const { data } = (await new TestClient(t.app).get('/api/v1/bootstrap-data')).json();
    expect(data.site.demo).toBe(false);
    expect(data.demo.credentials).toBeNull();
  });

  it('creates an admin and 100 numbered accounts once, turns demo on and pre-fills the login', async () => {
    expect(await ensureDemoAccounts(t.app.services.db.kysely)).toBe(101);
    expect(await ensureDemoAccounts(t.app.services.db.kysely)).toBe(0);
    const { data } = (await new TestClient(t.app).get('/api/v1/bootstrap-data')).json();
    expect(data.site.demo).toBe(true);
    expect(data.demo).toEqual({ loginPageDefaults: 'singleAccount', credentials: { email: 'admin@demo.com', password: 'admin' } });

    const admin = new TestClient(t.app);
    await admin.login('admin@demo.com', 'admin');
    const me = (await admin.get('/api/v1/bootstrap-data')).json().data.user;
    expect(me.permissions.map((p: { name: string }) => p.name)).toContain('admin');
  });

  it('pre-fills one of the 100 numbered accounts in randomAccount mode, and that account signs in', async () => {
    await t.app.services.settings.set({ 'demo.loginPageDefaults': 'randomAccount' });
    const { data } = (await new TestClient(t.app).get('/api/v1/bootstrap-data')).json();
    expect(data.demo.credentials.email).toMatch(/^demo([1-9]|[1-9][0-9]|100)@demo\.com$/);
    await new TestClient(t.app).login(data.demo.credentials.email, data.demo.credentials.password);
  });

  it('picks from 1 to 100', () => {
    expect(demoCredentials('randomAccount', () => 0).email).toBe('demo1@demo.com');
    expect(demoCredentials('randomAccount', () => 0.99999).email).toBe('demo100@demo.com');
  });
});
