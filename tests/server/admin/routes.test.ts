import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.js';
import { createUser, type CreatedUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { uploadFile } from '../support/drive-factories.js';
import { appearanceAdminCalls } from '../appearance/admin-calls.js';
import { servicesOf } from '../support/services-handle.js';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
interface Call {
  method: Method;
  url: string;
  body?: unknown;
  headers?: Record<string, string>;
}
interface Route {
  name: string;
  permission: string;
  /** Builds the call, with fresh targets for destructive ones. */
  call: (t: TestApp) => Promise<Call>;
}

const target = async (t: TestApp) => createUser(servicesOf(t.app).db.kysely);
/** Every caller's password (the factory's): sign in as and deletion ask it again (issue 30 finding 8). */
const PASSWORD = 'correct horse battery staple';
const freshRole = async (t: TestApp) => {
  const admin = await signedIn(t, { roles: ['admin'] });
  const res = await admin.client.post('/api/v1/admin/roles', { name: `Temp ${Math.random().toString(36).slice(2, 8)}`, permissions: [{ name: 'files.view' }] });
  return res.json().role.id as number;
};

const file = async (t: TestApp) => (await uploadFile(t.app, await target(t), { name: 'f.txt', content: 'hello' })).id;
const workspace = async (t: TestApp) => {
  const now = new Date().toISOString();
  const owner = await target(t);
  const row = await servicesOf(t.app)
    .db.kysely.insertInto('workspaces')
    .values({ name: 'Team', owner_id: owner.id, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
};

const paidPlan = async (t: TestApp) => {
  const now = new Date().toISOString();
  const db = servicesOf(t.app).db.kysely;
  const { id } = await db
    .insertInto('products')
    .values({
      name: 'Temp plan',
      description: null,
      free: 0,
      hidden: 0,
      recommended: 0,
      available_space: null,
      gateway_id: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const price = await db
    .insertInto('prices')
    .values({ product_id: id, amount: 500, currency: 'USD', interval: 'month', interval_count: 1, gateway_id: null, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id, priceId: price.id };
};
/** A subscription no gateway bills (made by hand), so cancelling it needs no Stripe. */
const subscription = async (t: TestApp) => {
  const now = new Date().toISOString();
  const plan = await paidPlan(t);
  const row = await servicesOf(t.app)
    .db.kysely.insertInto('subscriptions')
    .values({
      user_id: (await target(t)).id,
      product_id: plan.id,
      price_id: plan.priceId,
      gateway_name: 'manual',
      gateway_id: `manual_${Math.random().toString(36).slice(2)}`,
      gateway_customer_id: null,
      gateway_status: 'active',
      renews_at: null,
      ends_at: null,
      cancelled_at: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
};
const planBody = {
  name: 'Team',
  description: 'For teams',
  feature_list: ['5 GB'],
  available_space: 5 * 1024 ** 3,
  prices: [{ amount: 700, currency: 'eur', interval: 'month' }],
};
const customPage = async (t: TestApp) => {
  const admin = await signedIn(t, { roles: ['admin'] });
  const res = await admin.client.post('/api/v1/admin/custom-pages', {
    title: 'Temp page',
    slug: `temp-${Math.random().toString(36).slice(2, 8)}`,
    body: '<p>x</p>',
  });
  return res.json().page.id as number;
};
const menu = async (t: TestApp) => {
  const admin = await signedIn(t, { roles: ['admin'] });
  return (await admin.client.post('/api/v1/admin/menus', { name: 'Temp menu', positions: ['navbar'] })).json().menu.id as number;
};
const pageBody = () => ({ title: 'A page', slug: `page-${Math.random().toString(36).slice(2, 8)}`, body: '<p>hello</p>' });

/** Every admin call with the one permission that guards it. */
const routes: Route[] = [
  { name: 'GET dashboard', permission: 'reports.view', call: async () => ({ method: 'GET', url: '/api/v1/admin/dashboard' }) },
  { name: 'GET health', permission: 'reports.view', call: async () => ({ method: 'GET', url: '/api/v1/admin/health' }) },
  { name: 'GET users', permission: 'users.view', call: async () => ({ method: 'GET', url: '/api/v1/admin/users?orderBy=space_used&query=user' }) },
  { name: 'GET user', permission: 'users.view', call: async (t) => ({ method: 'GET', url: `/api/v1/admin/users/${(await target(t)).id}` }) },
  {
    name: 'POST user',
    permission: 'users.create',
    call: async () => ({
      method: 'POST',
      url: '/api/v1/admin/users',
      body: { email: `new-${Math.random().toString(36).slice(2, 8)}@example.com`, password: 'a good password' },
    }),
  },
  {
    name: 'PUT user',
    permission: 'users.update',
    call: async (t) => ({ method: 'PUT', url: `/api/v1/admin/users/${(await target(t)).id}`, body: { first_name: 'Changed' } }),
  },
  {
    name: 'bulk update',
    permission: 'users.update',
    call: async (t) => ({ method: 'POST', url: '/api/v1/admin/users/bulk-update', body: { ids: [(await target(t)).id], action: 'suspend' } }),
  },
  {
    name: 'password reset',
    permission: 'users.update',
    call: async (t) => ({ method: 'POST', url: `/api/v1/admin/users/${(await target(t)).id}/password-reset` }),
  },
  {
    name: 'two-factor reset',
    permission: 'users.update',
    call: async (t) => ({ method: 'POST', url: `/api/v1/admin/users/${(await target(t)).id}/two-factor/reset`, body: { current_password: PASSWORD } }),
  },
  {
    name: 'bulk delete',
    permission: 'users.delete',
    call: async (t) => ({ method: 'POST', url: '/api/v1/admin/users/bulk-delete', body: { ids: [(await target(t)).id], current_password: PASSWORD } }),
  },
  {
    name: 'impersonate',
    permission: 'users.impersonate',
    call: async (t) => ({ method: 'POST', url: `/api/v1/admin/users/${(await target(t)).id}/impersonate`, body: { current_password: PASSWORD } }),
  },
  { name: 'GET permissions', permission: 'roles.view', call: async () => ({ method: 'GET', url: '/api/v1/admin/permissions' }) },
  { name: 'GET roles', permission: 'roles.view', call: async () => ({ method: 'GET', url: '/api/v1/admin/roles' }) },
  {
    name: 'POST role',
    permission: 'roles.update',
    call: async () => ({ method: 'POST', url: '/api/v1/admin/roles', body: { name: `Role ${Math.random().toString(36).slice(2, 8)}`, permissions: [] } }),
  },
  {
    name: 'PUT role',
    permission: 'roles.update',
    call: async (t) => ({
      method: 'PUT',
      url: `/api/v1/admin/roles/${await freshRole(t)}`,
      body: { name: `Role ${Math.random().toString(36).slice(2, 8)}`, permissions: [{ name: 'files.view' }] },
    }),
  },
  { name: 'DELETE role', permission: 'roles.update', call: async (t) => ({ method: 'DELETE', url: `/api/v1/admin/roles/${await freshRole(t)}` }) },
  { name: 'GET settings', permission: 'settings.view', call: async () => ({ method: 'GET', url: '/api/v1/admin/settings' }) },
  {
    name: 'PUT settings',
    permission: 'settings.update',
    call: async () => ({ method: 'PUT', url: '/api/v1/admin/settings', body: { 'branding.site_name': 'Drive' } }),
  },
  { name: 'test mail', permission: 'settings.update', call: async () => ({ method: 'POST', url: '/api/v1/admin/settings/test-mail', body: {} }) },
  { name: 'GET activity', permission: 'activity.view', call: async () => ({ method: 'GET', url: '/api/v1/admin/activity' }) },
  { name: 'GET files', permission: 'all_files.view', call: async () => ({ method: 'GET', url: '/api/v1/admin/files?query=f.txt&orderBy=file_size' }) },
  {
    name: 'delete files',
    permission: 'all_files.delete',
    call: async (t) => ({ method: 'POST', url: '/api/v1/admin/files/delete', body: { ids: [await file(t)] } }),
  },
  { name: 'download file', permission: 'all_files.download', call: async (t) => ({ method: 'GET', url: `/api/v1/admin/files/${await file(t)}/download` }) },
  { name: 'GET workspaces', permission: 'all_workspaces.view', call: async () => ({ method: 'GET', url: '/api/v1/admin/workspaces' }) },
  {
    name: 'DELETE workspace',
    permission: 'all_workspaces.delete',
    call: async (t) => ({ method: 'DELETE', url: `/api/v1/admin/workspaces/${await workspace(t)}` }),
  },
  { name: 'GET plans', permission: 'plans.view', call: async () => ({ method: 'GET', url: '/api/v1/admin/plans' }) },
  { name: 'POST plan', permission: 'plans.create', call: async () => ({ method: 'POST', url: '/api/v1/admin/plans', body: planBody }) },
  {
    name: 'PUT plan',
    permission: 'plans.update',
    call: async (t) => ({ method: 'PUT', url: `/api/v1/admin/plans/${(await paidPlan(t)).id}`, body: { ...planBody, prices: undefined, hidden: true } }),
  },
  {
    name: 'POST price',
    permission: 'plans.update',
    call: async (t) => ({
      method: 'POST',
      url: `/api/v1/admin/plans/${(await paidPlan(t)).id}/prices`,
      body: { amount: 9900, currency: 'USD', interval: 'year' },
    }),
  },
  {
    name: 'DELETE price',
    permission: 'plans.update',
    call: async (t) => {
      const plan = await paidPlan(t);
      return { method: 'DELETE', url: `/api/v1/admin/plans/${plan.id}/prices/${plan.priceId}` };
    },
  },
  {
    name: 'GET subscriptions',
    permission: 'subscriptions.view',
    call: async () => ({ method: 'GET', url: '/api/v1/admin/subscriptions?status=active&orderBy=renews_at' }),
  },
  {
    name: 'cancel subscription',
    permission: 'subscriptions.update',
    call: async (t) => ({ method: 'POST', url: `/api/v1/admin/subscriptions/${await subscription(t)}/cancel`, body: {} }),
  },
  ...appearanceAdminCalls,
  // Custom pages and menus (issue 18).
  { name: 'GET custom pages', permission: 'custom_pages.view', call: async () => ({ method: 'GET', url: '/api/v1/admin/custom-pages' }) },
  {
    name: 'GET custom page',
    permission: 'custom_pages.view',
    call: async (t) => ({ method: 'GET', url: `/api/v1/admin/custom-pages/${await customPage(t)}` }),
  },
  { name: 'POST custom page', permission: 'custom_pages.create', call: async () => ({ method: 'POST', url: '/api/v1/admin/custom-pages', body: pageBody() }) },
  {
    name: 'PUT custom page',
    permission: 'custom_pages.update',
    call: async (t) => ({ method: 'PUT', url: `/api/v1/admin/custom-pages/${await customPage(t)}`, body: pageBody() }),
  },
  {
    name: 'DELETE custom page',
    permission: 'custom_pages.delete',
    call: async (t) => ({ method: 'DELETE', url: `/api/v1/admin/custom-pages/${await customPage(t)}` }),
  },
  { name: 'GET menus', permission: 'menus.view', call: async () => ({ method: 'GET', url: '/api/v1/admin/menus' }) },
  {
    name: 'POST menu',
    permission: 'menus.update',
    call: async () => ({ method: 'POST', url: '/api/v1/admin/menus', body: { name: 'New', positions: ['footer'] } }),
  },
  {
    name: 'PUT menu',
    permission: 'menus.update',
    call: async (t) => ({
      method: 'PUT',
      url: `/api/v1/admin/menus/${await menu(t)}`,
      body: { name: 'Renamed', items: [{ label: 'Home', action: '/drive' }] },
    }),
  },
  { name: 'DELETE menu', permission: 'menus.update', call: async (t) => ({ method: 'DELETE', url: `/api/v1/admin/menus/${await menu(t)}` }) },
];

async function signedIn(t: TestApp, options: Parameters<typeof createUser>[1] = {}): Promise<{ user: CreatedUser; client: TestClient }> {
  const user = await createUser(servicesOf(t.app).db.kysely, options);
  const client = new TestClient(t.app);
  await client.login(user.email, user.password);
  return { user, client };
}

const send = (client: TestClient, call: Call) => client.request(call.method, call.url, { body: call.body, ...(call.headers ? { headers: call.headers } : {}) });

/**
 * Every admin call × the four callers: a guest (401), a plain user (403), a
 * user holding only the call's permission (2xx) and an admin (2xx).
 */
describe('permissions of every admin call', () => {
  let t: TestApp;
  let plain: TestClient;
  let admin: TestClient;
  beforeAll(async () => {
    t = await createTestApp();
    plain = (await signedIn(t)).client;
    admin = (await signedIn(t, { roles: ['admin'] })).client;
  }, 60_000);
  afterAll(() => t.close());

  it.each(routes)('$name needs $permission', async ({ permission, call }) => {
    expect((await send(new TestClient(t.app), await call(t))).statusCode).toBe(401);
    expect((await send(plain, await call(t))).statusCode).toBe(403);
    expect((await send(plain, await call(t))).json().message).toBe('This action is unauthorized.');
    const holder = (await signedIn(t, { permissions: [{ name: permission }] })).client;
    const own = await send(holder, await call(t));
    expect(own.statusCode, own.body).toBe(200);
    // A fresh admin each time: "sign in as" swaps the client's session.
    const res = await send((await signedIn(t, { roles: ['admin'] })).client, await call(t));
    expect(res.statusCode, res.body).toBe(200);
  });

  it('every admin route in the OpenAPI document is in this table (or is the way back from sign in as)', async () => {
    const doc = (await admin.get('/api/v1/openapi.json')).json() as { paths: Record<string, Record<string, unknown>> };
    const listed = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/api/v1/admin/'))
      .flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`));
    const tested = new Set(routes.map((r) => r.name));
    expect(listed.length).toBeGreaterThanOrEqual(routes.length);
    expect(tested.size).toBe(routes.length);
    const known = listed.filter((entry) => entry !== 'POST /api/v1/admin/impersonation/stop');
    expect(known.length, known.join('\n')).toBe(routes.length);
  });
});
