import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { bootstrapResponseSchema } from '../../../server/modules/bootstrap/schemas.js';
import { TestClient } from '../support/client.js';
import { setSettingsForTest } from '../support/settings.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

describe('GET /api/v1/bootstrap-data', () => {
  let t: TestApp;
  const admin = { email: 'root@example.com', password: 'admin password 1' };

  beforeAll(async () => {
    t = await createTestApp();
    const { ensureFirstAdmin } = await import('../../../server/modules/setup/first-admin.js');
    await ensureFirstAdmin(servicesOf(t.app).db.kysely, admin);
  });
  afterAll(() => t.close());

  it('gives a guest every bootstrap field, with no user and the guest role', async () => {
    const res = await new TestClient(t.app).get('/api/v1/bootstrap-data');
    expect(res.statusCode).toBe(200);
    const { data } = bootstrapResponseSchema.parse(res.json());
    expect(data.user).toBeNull();
    expect(data.guest_role.name).toBe('guests');
    expect(data.themes.all.filter((theme) => theme.default_light)).toHaveLength(1);
    expect(data.themes.all.filter((theme) => theme.default_dark && theme.is_dark)).toHaveLength(1);
    expect(data.themes.selectedThemeId).toBe(data.themes.all.find((theme) => theme.default_light)?.id);
    expect(data.settings).toMatchObject({
      base_url: expect.any(String),
      uploads: expect.any(Object),
      dates: { default_timezone: expect.any(String) },
      themes: { user_change: true },
      registration: { disable: false },
    });
    expect(data.branding.site_name).toBe('Drive');
    expect(data.i18n.language).toBe('en');
    expect(data.i18n.lines["Looks like you've found the doorway to the great nothing"]).toBeDefined();
    expect(data.menus.length).toBeGreaterThan(0);
    expect(data.registration.policies.length).toBeGreaterThan(0);
    expect(data.recaptcha.enable).toEqual({ register: false, contact: false, link_creation: false });
    expect(data.notifications.integrated).toBe(true);
    expect(data.billing.enable).toBe(false);
    expect(data.social).toEqual({ google: { enable: false }, facebook: { enable: false }, twitter: { enable: false } });
    expect(data.site.demo).toBe(false);
    expect(data.demo.loginPageDefaults).toBe('singleAccount');
  });

  it('gives a signed-in admin their user with roles and permissions', async () => {
    const client = new TestClient(t.app);
    await client.login(admin.email, admin.password);
    const { data } = bootstrapResponseSchema.parse((await client.get('/api/v1/bootstrap-data')).json());
    expect(data.user).toMatchObject({
      email: admin.email,
      display_name: 'Admin',
      unread_notifications_count: 0,
      email_verified_at: expect.any(String),
      subscriptions: [],
    });
    expect(data.user?.roles.map((role) => role.name).sort()).toEqual(['admin', 'users']);
    expect(data.user?.permissions.map((p) => p.name)).toContain('admin');
    expect(JSON.stringify(data)).not.toMatch(/argon2/);
  });

  it('reads settings from the database, never private ones', async () => {
    await setSettingsForTest(t.app, {
      'branding.site_name': 'Acme Files',
      'billing.enable': true,
      'billing.stripe.secret_key': 'sk_test_very_secret',
      'billing.stripe.webhook_secret': 'whsec_very_secret',
      'registration.disable': true,
      'recaptcha.secret_key': 'very-secret',
    });
    const res = await new TestClient(t.app).get('/api/v1/bootstrap-data');
    const { data } = res.json();
    expect(data.branding.site_name).toBe('Acme Files');
    expect(data.billing.enable).toBe(true);
    expect(data.registration.disable).toBe(true);
    expect(data.settings.registration.disable).toBe(true);
    expect(res.body).not.toMatch(/very-secret|very_secret/);
  });

  it('reads themes and menus from their tables', async () => {
    const db = servicesOf(t.app).db.kysely;
    const light = await db.selectFrom('themes').select(['id', 'colors']).where('default_light', '=', 1).executeTakeFirstOrThrow();
    onTestFinished(async () => {
      await db.updateTable('themes').set({ colors: light.colors }).where('id', '=', light.id).execute();
      await db.updateTable('menus').set({ name: 'Footer' }).where('name', '=', 'Renamed menu').execute();
    });
    await db
      .updateTable('themes')
      .set({ colors: JSON.stringify({ '--be-primary': '1 2 3' }) })
      .where('default_light', '=', 1)
      .execute();
    await db.updateTable('menus').set({ name: 'Renamed menu' }).where('name', '=', 'Footer').execute();
    const { data } = (await new TestClient(t.app).get('/api/v1/bootstrap-data')).json();
    expect(data.themes.all.find((theme: { id: number }) => theme.id === light.id).colors).toEqual({ '--be-primary': '1 2 3' });
    expect(data.menus.map((menu: { name: string }) => menu.name)).toContain('Renamed menu');
  });

  it('selects the theme named by themes.default_id', async () => {
    const dark = await servicesOf(t.app).db.kysely.selectFrom('themes').select('id').where('is_dark', '=', 1).executeTakeFirstOrThrow();
    await setSettingsForTest(t.app, { 'themes.default_id': dark.id });
    const { data } = (await new TestClient(t.app).get('/api/v1/bootstrap-data')).json();
    expect(data.themes.selectedThemeId).toBe(dark.id);
  });

  it('is marked private to the browser', async () => {
    const res = await new TestClient(t.app).get('/api/v1/bootstrap-data');
    expect(res.headers['cache-control']).toBe('private, no-cache');
  });
});
