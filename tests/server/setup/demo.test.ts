import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCredentials, ensureDemoAccounts } from '../../../server/modules/setup/demo.js';
import { TestClient } from '../support/client.js';
import { setSettingsForTest } from '../support/settings.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

describe('a site that is not a demo', () => {
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
});

// A site of its own: making the demo accounts turns demo mode on for good.
describe('demo mode', () => {
  let t: TestApp;
  /** What the site's first call made: in the hook, so it is the first call whatever order the tests run in. */
  let created: number;
  beforeAll(async () => {
    t = await createTestApp();
    created = await ensureDemoAccounts(servicesOf(t.app).db.kysely);
  });
  afterAll(() => t.close());

  it('creates an admin and 100 numbered accounts once, turns demo on and pre-fills the login', async () => {
    expect(created).toBe(101);
    expect(await ensureDemoAccounts(servicesOf(t.app).db.kysely)).toBe(0);
    const { data } = (await new TestClient(t.app).get('/api/v1/bootstrap-data')).json();
    expect(data.site.demo).toBe(true);
    expect(data.demo).toEqual({ loginPageDefaults: 'singleAccount', credentials: { email: 'admin@demo.com', password: 'admin' } });

    const admin = new TestClient(t.app);
    await admin.login('admin@demo.com', 'admin');
    const me = (await admin.get('/api/v1/bootstrap-data')).json().data.user;
    expect(me.permissions.map((p: { name: string }) => p.name)).toContain('admin');
  });

  it('pre-fills one of the 100 numbered accounts in randomAccount mode, and that account signs in', async () => {
    await setSettingsForTest(t.app, { 'demo.loginPageDefaults': 'randomAccount' });
    const { data } = (await new TestClient(t.app).get('/api/v1/bootstrap-data')).json();
    expect(data.demo.credentials.email).toMatch(/^demo([1-9]|[1-9][0-9]|100)@demo\.com$/);
    await new TestClient(t.app).login(data.demo.credentials.email, data.demo.credentials.password);
  });

  it('picks from 1 to 100', () => {
    expect(demoCredentials('randomAccount', () => 0).email).toBe('demo1@demo.com');
    expect(demoCredentials('randomAccount', () => 0.99999).email).toBe('demo100@demo.com');
  });
});
