import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { TestClient } from '../support/client.js';
import { createUser, signedInUser } from '../support/factories.js';
import { restoreSettingsAfterTest } from '../support/settings.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

interface WireMenu {
  id: number;
  name: string;
  positions: string[];
  items: { id: string; label: string; action: string; type: string; roles: number[]; permissions: string[] }[];
}

const item = (label: string, action: string, extra: Record<string, unknown> = {}) => ({ label, action, ...extra });

describe('menus', () => {
  let t: TestApp;
  let admin: TestClient;
  beforeAll(async () => {
    t = await createTestApp();
    admin = (await signedInUser(t.app, { roles: ['admin'] })).client;
  }, 60_000);
  afterAll(() => t.close());

  const bootstrapMenus = async (client: TestClient) => (await client.get('/api/v1/bootstrap-data')).json().data.menus as WireMenu[];
  const labels = (menus: WireMenu[], position: string) => menus.filter((m) => m.positions.includes(position)).flatMap((m) => m.items.map((i) => i.label));
  const named = (name: string) => (menus: WireMenu[]) => menus.filter((m) => m.name === name);
  /** A menu for the running test only: it is gone once the test finishes, so no other test finds its items. */
  const createOwnMenu = async (body: { name: string; positions: string[]; items: ReturnType<typeof item>[] }) => {
    const created = await admin.post('/api/v1/admin/menus', body);
    if (created.statusCode === 200) {
      const { id } = created.json().menu as WireMenu;
      onTestFinished(async () => {
        await servicesOf(t.app).db.kysely.deleteFrom('menus').where('id', '=', id).execute();
      });
    }
    return created;
  };

  it('seeds the menus the app had: user menu, mobile menu, footer, and an empty navbar', async () => {
    const { menus } = (await admin.get('/api/v1/admin/menus')).json() as { menus: WireMenu[] };
    // The seeded menus by name: menus other tests add are theirs.
    const seeded = (name: string) => [menus.find((m) => m.name === name)!];
    expect(menus.map((m) => m.name)).toEqual(expect.arrayContaining(['Navbar', 'User menu', 'Mobile menu', 'Footer']));
    expect(labels(seeded('Footer'), 'footer')).toEqual(['Privacy Policy', 'Terms of Service']);
    expect(labels(seeded('Mobile menu'), 'mobile-menu')).toEqual(['My drive', 'Pricing', 'Account settings', 'Admin area']);
    expect(labels(seeded('Navbar'), 'navbar')).toEqual([]);
  });

  it('saves items in the order given, derives link or route from the address, and logs the change', async () => {
    const created = await createOwnMenu({
      name: 'Extra',
      positions: ['navbar'],
      items: [item('Docs', 'https://docs.example.com', { target: '_blank' }), item('About', '/pages/about')],
    });
    expect(created.statusCode, created.body).toBe(200);
    const menu = created.json().menu as WireMenu;
    expect(menu.items.map((i) => [i.label, i.type])).toEqual([
      ['Docs', 'link'],
      ['About', 'route'],
    ]);
    expect(new Set(menu.items.map((i) => i.id)).size).toBe(2);

    const reordered = await admin.request('PUT', `/api/v1/admin/menus/${menu.id}`, { body: { ...menu, items: [menu.items[1], menu.items[0]] } });
    expect(reordered.statusCode, reordered.body).toBe(200);
    expect((reordered.json().menu as WireMenu).items.map((i) => i.id)).toEqual([menu.items[1]!.id, menu.items[0]!.id]);

    expect(labels(named('Extra')(await bootstrapMenus(new TestClient(t.app))), 'navbar')).toEqual(['About', 'Docs']);
    expect((await admin.request('DELETE', `/api/v1/admin/menus/${menu.id}`)).statusCode).toBe(200);
    expect((await admin.request('DELETE', `/api/v1/admin/menus/${menu.id}`)).statusCode).toBe(404);
    expect((await admin.request('PUT', `/api/v1/admin/menus/${menu.id}`, { body: { name: 'x' } })).statusCode).toBe(404);
    const log = (await admin.get('/api/v1/admin/activity?query=menu')).json().pagination.data.map((r: { action: string }) => r.action);
    expect(log).toEqual(expect.arrayContaining(['menu.created', 'menu.updated', 'menu.deleted']));
  });

  it('refuses script-bearing and malformed addresses as field errors, leaving the menu as it was', async () => {
    const { menus } = (await admin.get('/api/v1/admin/menus')).json() as { menus: WireMenu[] };
    const footer = menus.find((m) => m.name === 'Footer')!;
    for (const action of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      '//evil.example.com',
      'vbscript:x',
      'pages/no-slash',
      '',
    ]) {
      const res = await admin.request('PUT', `/api/v1/admin/menus/${footer.id}`, { body: { ...footer, items: [item('Bad', action)] } });
      expect(res.statusCode, action).toBe(422);
      expect(res.json().errors['items.0.action'], action).toBeDefined();
    }
    const bad = await admin.post('/api/v1/admin/menus', { name: 'x', positions: ['nowhere'] });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors['positions.0']).toBeDefined();
    const after = ((await admin.get('/api/v1/admin/menus')).json() as { menus: WireMenu[] }).menus.find((m) => m.id === footer.id)!;
    expect(after.items).toEqual(footer.items);
  });

  it('refuses a registration policy with a script address (policies are links like menu items)', async () => {
    await restoreSettingsAfterTest(t.app, ['registration.policies']);
    const res = await admin.request('PUT', '/api/v1/admin/settings', {
      body: { 'registration.policies': [{ id: 'terms', label: 'Terms', action: 'javascript:alert(1)', type: 'route' }] },
    });
    expect(res.statusCode).toBe(422);
    const ok = await admin.request('PUT', '/api/v1/admin/settings', {
      body: { 'registration.policies': [{ id: 'terms', label: 'Terms', action: '/pages/terms', type: 'route' }] },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await new TestClient(t.app).get('/api/v1/bootstrap-data')).json().data.registration.policies).toEqual([
      { id: 'terms', label: 'Terms', action: '/pages/terms', type: 'route' },
    ]);
  });

  // Each of these a browser resolves to another host: it drops tabs and line breaks anywhere, C0 controls and
  // spaces at the ends, and reads a backslash as a slash.
  const OFF_SITE = ['/\t/evil.example', '/\n/evil.example', '/\r\n/evil.example', '\u0001//evil.example', '/\\evil.example', '\t/\\evil.example'];

  it('refuses paths a browser reads as another host, and stores an accepted path as a browser reads it (issue 30 finding 7)', async () => {
    const { menus } = (await admin.get('/api/v1/admin/menus')).json() as { menus: WireMenu[] };
    const footer = menus.find((m) => m.name === 'Footer')!;
    for (const action of OFF_SITE) {
      const res = await admin.request('PUT', `/api/v1/admin/menus/${footer.id}`, { body: { ...footer, items: [item('Bad', action)] } });
      expect(res.statusCode, JSON.stringify(action)).toBe(422);
      expect(res.json().errors['items.0.action'], JSON.stringify(action)).toBeDefined();
      const policy = await admin.request('PUT', '/api/v1/admin/settings', {
        body: { 'registration.policies': [{ id: 'terms', label: 'Terms', action, type: 'route' }] },
      });
      expect(policy.statusCode, JSON.stringify(action)).toBe(422);
    }
    const created = await createOwnMenu({ name: 'Tabbed', positions: ['navbar'], items: [item('About', '/pa\tges/ab\nout')] });
    expect(created.statusCode, created.body).toBe(200);
    expect((created.json().menu as WireMenu).items[0]!.action).toBe('/pages/about');
    expect((await admin.request('DELETE', `/api/v1/admin/menus/${created.json().menu.id}`)).statusCode).toBe(200);
  });

  it('never serves an off-site path saved before the check, in menus or policies (issue 30 finding 7)', async () => {
    const db = servicesOf(t.app).db.kysely;
    await restoreSettingsAfterTest(t.app, ['registration.policies']);
    const created = await createOwnMenu({ name: 'Legacy', positions: ['footer'], items: [item('Fine', '/pages/fine')] });
    const menu = created.json().menu as WireMenu;
    const legacy = [
      ...OFF_SITE.map((action, i) => ({ ...menu.items[0]!, id: `bad${i}`, label: `Bad ${i}`, action })),
      { ...menu.items[0]!, id: 'tab', label: 'Tab', action: '/pa\tges/x' },
    ];
    await db
      .updateTable('menus')
      .set({ items: JSON.stringify(legacy) })
      .where('id', '=', menu.id)
      .execute();
    await servicesOf(t.app).settings.set({
      'registration.policies': [
        { id: 'terms', label: 'Terms', action: '/\t/evil.example', type: 'route' },
        { id: 'privacy', label: 'Privacy', action: '/pri\nvacy', type: 'link' },
      ],
    });
    const boot = (await new TestClient(t.app).get('/api/v1/bootstrap-data')).json().data;
    const served = (boot.menus as WireMenu[]).find((m) => m.id === menu.id)!;
    expect(served.items.map((i) => [i.label, i.action, i.type])).toEqual([['Tab', '/pages/x', 'route']]);
    expect(boot.registration.policies).toEqual([
      { id: 'terms', label: 'Terms', action: '', type: 'route' },
      { id: 'privacy', label: 'Privacy', action: '/privacy', type: 'route' },
    ]);
    expect((await admin.request('DELETE', `/api/v1/admin/menus/${menu.id}`)).statusCode).toBe(200);
  });

  it('puts in bootstrap only the items this visitor may see, by roles and permissions', async () => {
    const db = servicesOf(t.app).db.kysely;
    const editors = await db.selectFrom('roles').select('id').where('name', '=', 'admin').executeTakeFirstOrThrow();
    const created = await createOwnMenu({
      name: 'Gated',
      positions: ['navbar'],
      items: [
        item('Everyone', '/pages/everyone'),
        item('Needs permission', '/pages/perm', { permissions: ['api.access'] }),
        item('Needs role', '/pages/role', { roles: [editors.id] }),
        item('Needs both', '/pages/both', { roles: [editors.id], permissions: ['custom_pages.view'] }),
      ],
    });
    expect(created.statusCode, created.body).toBe(200);
    const gated = named('Gated');

    const guest = labels(gated(await bootstrapMenus(new TestClient(t.app))), 'navbar');
    expect(guest).toEqual(['Everyone']);

    const holder = await createUser(db, { permissions: [{ name: 'api.access' }] });
    const holderClient = new TestClient(t.app);
    await holderClient.login(holder.email, holder.password);
    expect(labels(gated(await bootstrapMenus(holderClient)), 'navbar')).toEqual(['Everyone', 'Needs permission']);

    expect(labels(gated(await bootstrapMenus(admin)), 'navbar')).toEqual(['Everyone', 'Needs permission', 'Needs role', 'Needs both']);
    // The admin editor still sees every item.
    const stored = ((await admin.get('/api/v1/admin/menus')).json() as { menus: WireMenu[] }).menus.find((m) => m.name === 'Gated')!;
    expect(stored.items).toHaveLength(4);
    // The seeded admin link stays hidden from a plain user.
    const plain = await createUser(db);
    const plainClient = new TestClient(t.app);
    await plainClient.login(plain.email, plain.password);
    expect(labels(await bootstrapMenus(plainClient), 'mobile-menu')).not.toContain('Admin area');
  });
});
