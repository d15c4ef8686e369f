import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StripeDouble } from '../../peers/stripe-double.js';
import { billingApp, deliverAll, plans, subscribe, type Plans } from '../billing/support.js';
import { TestClient } from '../support/client.js';
import { signedInUser } from '../support/drive-factories.js';
import type { TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

const GB = 1024 ** 3;

interface AdminPlan {
  id: number;
  name: string;
  hidden: boolean;
  recommended: boolean;
  feature_list: string[];
  available_space: number | null;
  gateway_id: string | null;
  subscribers: number;
  prices: { id: number; amount: number; currency: string; interval: string; gateway_id: string | null; subscribers: number }[];
}
interface PublicPlan {
  id: number;
  name: string;
  recommended: boolean;
  feature_list: string[];
  available_space: number | null;
  prices: { amount: number; currency: string; interval: string }[];
}

describe('admin plans and subscriptions, with Stripe configured', () => {
  let t: TestApp;
  let stripe: StripeDouble;
  let close: () => Promise<void>;
  let admin: TestClient;
  let seeded: Plans;
  beforeAll(async () => {
    ({ t, stripe, close } = await billingApp());
    admin = (await signedInUser(t.app, { roles: ['admin'] })).client;
    seeded = await plans(new TestClient(t.app));
  });
  afterAll(() => close());

  const db = () => servicesOf(t.app).db.kysely;
  const put = (url: string, body: unknown) => admin.request('PUT', url, { body });
  const del = (url: string) => admin.request('DELETE', url);
  const pricing = async () => (await new TestClient(t.app).get('/api/v1/billing/products')).json().pagination.data as PublicPlan[];
  const lastActivity = async () => (await db().selectFrom('admin_activity').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow()).action;
  const create = async (body: Record<string, unknown>) => {
    const res = await admin.post('/api/v1/admin/plans', body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().plan as AdminPlan;
  };
  const team = (name = `Team ${Math.random().toString(36).slice(2, 7)}`) => ({
    name,
    description: 'For small teams',
    feature_list: ['500 GB of storage', 'Team workspaces'],
    available_space: 500 * GB,
    recommended: true,
    prices: [
      { amount: 1499, currency: 'eur', interval: 'month' },
      { amount: 14900, currency: 'EUR', interval: 'year' },
    ],
  });

  it('creates a plan with its prices here and in Stripe, and the pricing call lists it in major units', async () => {
    const plan = await create(team('Team'));
    expect(plan).toMatchObject({ name: 'Team', hidden: false, recommended: true, available_space: 500 * GB, subscribers: 0 });
    expect(plan.prices.map((p) => [p.amount, p.currency, p.interval])).toEqual([
      [1499, 'EUR', 'month'],
      [14900, 'EUR', 'year'],
    ]);
    expect(stripe.products.get(plan.gateway_id!)).toMatchObject({ name: 'Team', active: true, metadata: { product_id: String(plan.id) } });
    for (const price of plan.prices) {
      expect(stripe.prices.get(price.gateway_id!)).toMatchObject({ product: plan.gateway_id, unit_amount: price.amount, currency: 'eur' });
    }
    expect(await lastActivity()).toBe('plan.created');
    const listed = (await pricing()).find((p) => p.id === plan.id)!;
    expect(listed).toMatchObject({ recommended: true, feature_list: ['500 GB of storage', 'Team workspaces'], available_space: 500 * GB });
    expect(listed.prices.map((p) => p.amount)).toEqual([14.99, 149]);
  });

  it('edits, hides and shows a plan: the pricing call and the Stripe product follow', async () => {
    const plan = await create(team());
    const edit = { name: 'Team Plus', description: '', feature_list: ['1 TB'], available_space: null, recommended: false, hidden: true };
    const res = await put(`/api/v1/admin/plans/${plan.id}`, edit);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().plan).toMatchObject({ name: 'Team Plus', hidden: true, recommended: false, feature_list: ['1 TB'], available_space: null });
    expect((await pricing()).some((p) => p.id === plan.id)).toBe(false);
    expect(stripe.products.get(plan.gateway_id!)).toMatchObject({ name: 'Team Plus', active: false });
    expect(await lastActivity()).toBe('plan.updated');

    await put(`/api/v1/admin/plans/${plan.id}`, { ...edit, hidden: false, recommended: true });
    const listed = (await pricing()).find((p) => p.id === plan.id);
    expect(listed).toMatchObject({ name: 'Team Plus', recommended: true, feature_list: ['1 TB'], available_space: null });
    expect(stripe.products.get(plan.gateway_id!)!.active).toBe(true);
    // Hidden plans stay in the admin list.
    await put(`/api/v1/admin/plans/${plan.id}`, edit);
    const all = (await admin.get('/api/v1/admin/plans')).json().plans as AdminPlan[];
    expect(all.find((p) => p.id === plan.id)?.hidden).toBe(true);
  });

  it('refuses bad prices and plans with field errors, and saves nothing', async () => {
    const before = { products: stripe.products.size, prices: stripe.prices.size, rows: (await admin.get('/api/v1/admin/plans')).json().plans.length };
    const cases: [Record<string, unknown>, string][] = [
      [{ amount: 0, currency: 'USD', interval: 'month' }, 'prices.0.amount'],
      [{ amount: -100, currency: 'USD', interval: 'month' }, 'prices.0.amount'],
      [{ amount: 9.99, currency: 'USD', interval: 'month' }, 'prices.0.amount'],
      [{ amount: '999', currency: 'USD', interval: 'month' }, 'prices.0.amount'],
      [{ amount: 999, currency: 'XYZ', interval: 'month' }, 'prices.0.currency'],
      [{ amount: 999, currency: 'USD', interval: 'fortnight' }, 'prices.0.interval'],
      [{ amount: 999, currency: 'USD', interval: 'month', interval_count: 0 }, 'prices.0.interval_count'],
    ];
    for (const [price, field] of cases) {
      const res = await admin.post('/api/v1/admin/plans', { ...team(), prices: [price] });
      expect(res.statusCode, JSON.stringify(price)).toBe(422);
      expect(Object.keys(res.json().errors), JSON.stringify(price)).toEqual([field]);
    }
    const noName = await admin.post('/api/v1/admin/plans', { ...team(), name: ' ' });
    expect(noName.statusCode).toBe(422);
    expect(noName.json().errors.name).toEqual(['The name field is required.']);
    const badSpace = await admin.post('/api/v1/admin/plans', { ...team(), available_space: -1 });
    expect(Object.keys(badSpace.json().errors)).toEqual(['available_space']);

    const plan = (await admin.get('/api/v1/admin/plans')).json().plans[0] as AdminPlan;
    const badPrice = await admin.post(`/api/v1/admin/plans/${plan.id}/prices`, { amount: 0, currency: 'usd', interval: 'year' });
    expect(badPrice.statusCode).toBe(422);
    expect(Object.keys(badPrice.json().errors)).toEqual(['amount']);
    expect({ products: stripe.products.size, prices: stripe.prices.size, rows: (await admin.get('/api/v1/admin/plans')).json().plans.length }).toEqual(before);
  });

  it('answers 404 for unknown plans, prices and subscriptions', async () => {
    const plan = await create(team());
    const other = await create(team());
    const edit = { name: 'X', feature_list: [], available_space: null };
    const tries = [
      await put('/api/v1/admin/plans/999999', edit),
      await admin.post('/api/v1/admin/plans/999999/prices', { amount: 100, currency: 'USD', interval: 'month' }),
      await del(`/api/v1/admin/plans/${plan.id}/prices/999999`),
      // A price of another plan is not this plan's price.
      await del(`/api/v1/admin/plans/${plan.id}/prices/${other.prices[0]!.id}`),
      await admin.post('/api/v1/admin/subscriptions/999999/cancel', {}),
    ];
    expect(tries.map((r) => r.statusCode)).toEqual([404, 404, 404, 404, 404]);
    expect(tries.map((r) => r.json().message)).toEqual([
      'This plan does not exist.',
      'This plan does not exist.',
      'This price does not exist.',
      'This price does not exist.',
      'This subscription does not exist.',
    ]);
  });

  it('adds a price (made in Stripe) and removes an unused one (no longer sold there); a price with subscribers stays', async () => {
    const plan = await create(team());
    const added = await admin.post(`/api/v1/admin/plans/${plan.id}/prices`, { amount: 2500, currency: 'try', interval: 'month', interval_count: 3 });
    expect(added.statusCode, added.body).toBe(200);
    const price = (added.json().plan as AdminPlan).prices.find((p) => p.currency === 'TRY')!;
    expect(stripe.prices.get(price.gateway_id!)).toMatchObject({ unit_amount: 2500, currency: 'try', recurring: { interval: 'month', interval_count: 3 } });
    expect(await lastActivity()).toBe('price.created');

    const removed = await del(`/api/v1/admin/plans/${plan.id}/prices/${price.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect((removed.json().plan as AdminPlan).prices.some((p) => p.id === price.id)).toBe(false);
    expect(stripe.prices.get(price.gateway_id!)!.active).toBe(false);
    expect(await lastActivity()).toBe('price.deleted');

    const { client } = await signedInUser(t.app);
    await subscribe(t.app, stripe, client, plan.id, plan.prices[0]!.id);
    const used = await del(`/api/v1/admin/plans/${plan.id}/prices/${plan.prices[0]!.id}`);
    expect(used.statusCode).toBe(409);
    expect(used.json().message).toBe('This price has subscriptions. Hide the plan instead, or move its subscribers first.');
    const after = ((await admin.get('/api/v1/admin/plans')).json().plans as AdminPlan[]).find((p) => p.id === plan.id)!;
    expect(after.subscribers).toBe(1);
    expect(after.prices[0]!.subscribers).toBe(1);
  });

  it('keeps the plan when Stripe refuses, and says so', async () => {
    await servicesOf(t.app).settings.set({ 'billing.stripe.secret_key': 'sk_test_wrong' });
    try {
      const res = await admin.post('/api/v1/admin/plans', team('Offline plan'));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().message).toBe('Saved here, but Stripe could not be reached. Save the plan again later to update it there.');
      expect(res.json().plan.gateway_id).toBeNull();
      expect((await pricing()).some((p) => p.name === 'Offline plan')).toBe(true);
    } finally {
      await servicesOf(t.app).settings.set({ 'billing.stripe.secret_key': '' });
    }
    // Saving again once Stripe answers makes it there.
    const plan = ((await admin.get('/api/v1/admin/plans')).json().plans as AdminPlan[]).find((p) => p.name === 'Offline plan')!;
    const again = await put(`/api/v1/admin/plans/${plan.id}`, { ...team('Offline plan'), prices: undefined });
    expect(again.json().message).toBeUndefined();
    expect((again.json().plan as AdminPlan).prices.every((p) => p.gateway_id !== null)).toBe(true);
  });

  it('lists subscriptions filtered by status, user and plan; cancelling one cancels it at Stripe too', async () => {
    const { user, client } = await signedInUser(t.app);
    const gatewayId = await subscribe(t.app, stripe, client, seeded.pro.id, seeded.pro.monthly);
    const page = async (query: string) => (await admin.get(`/api/v1/admin/subscriptions?${query}`)).json().pagination;
    const mine = await page(`userId=${user.id}`);
    expect(mine.total).toBe(1);
    expect(mine.data[0]).toMatchObject({
      user_email: user.email,
      product_name: 'Pro',
      status: 'active',
      valid: true,
      gateway_name: 'stripe',
      gateway_id: gatewayId,
    });
    expect(mine.data[0].price).toMatchObject({ amount: 999, currency: 'USD', interval: 'month' });
    expect((await page(`productId=${seeded.business.id}&userId=${user.id}`)).total).toBe(0);
    expect((await page(`status=canceled&userId=${user.id}`)).total).toBe(0);
    expect((await page(`query=${encodeURIComponent(user.email)}`)).total).toBe(1);

    const id = mine.data[0].id as number;
    const res = await admin.post(`/api/v1/admin/subscriptions/${id}/cancel`, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(stripe.calls).toContain(`DELETE /v1/subscriptions/${gatewayId}`);
    expect(stripe.subscriptions.get(gatewayId)!.status).toBe('canceled');
    expect((await page(`status=canceled&userId=${user.id}`)).data[0]).toMatchObject({ valid: false });
    expect(await lastActivity()).toBe('subscription.cancelled');
    // Stripe's webhook then says the same.
    await deliverAll(t.app, stripe);
    expect((await page(`userId=${user.id}`)).data[0]).toMatchObject({ status: 'canceled', valid: false });
    const again = await admin.post(`/api/v1/admin/subscriptions/${id}/cancel`, {});
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This subscription has already ended.');
    expect((await client.get('/api/v1/billing/subscription')).json().subscription.valid).toBe(false);
  });

  it('cancels at the end of the paid period: the plan stays until then', async () => {
    const { user, client } = await signedInUser(t.app);
    const gatewayId = await subscribe(t.app, stripe, client, seeded.business.id, seeded.business.yearly);
    const row = (await admin.get(`/api/v1/admin/subscriptions?userId=${user.id}`)).json().pagination.data[0];
    const res = await admin.post(`/api/v1/admin/subscriptions/${row.id}/cancel`, { at_period_end: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(stripe.subscriptions.get(gatewayId)).toMatchObject({ status: 'active', cancel_at_period_end: true });
    const after = (await admin.get(`/api/v1/admin/subscriptions?userId=${user.id}`)).json().pagination.data[0];
    expect(after).toMatchObject({ valid: true, renews_at: null, ends_at: row.renews_at });
    expect((await client.get('/api/v1/billing/subscription')).json().subscription.on_grace_period).toBe(true);
  });
});

describe('admin plans and subscriptions, without Stripe', () => {
  let t: TestApp;
  let close: () => Promise<void>;
  let admin: TestClient;
  beforeAll(async () => {
    ({ t, close } = await billingApp({ keys: false }));
    admin = (await signedInUser(t.app, { roles: ['admin'] })).client;
  });
  afterAll(() => close());

  it('keeps plans here only, and will not pretend to cancel a Stripe subscription it cannot reach', async () => {
    const res = await admin.post('/api/v1/admin/plans', {
      name: 'Local',
      feature_list: [],
      available_space: null,
      prices: [{ amount: 100, currency: 'USD', interval: 'month' }],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBeUndefined();
    const plan = res.json().plan as AdminPlan;
    expect([plan.gateway_id, plan.prices[0]!.gateway_id]).toEqual([null, null]);

    const { user } = await signedInUser(t.app);
    const now = new Date().toISOString();
    const { id } = await servicesOf(t.app)
      .db.kysely.insertInto('subscriptions')
      .values({
        user_id: user.id,
        product_id: plan.id,
        price_id: plan.prices[0]!.id,
        gateway_name: 'stripe',
        gateway_id: 'sub_elsewhere',
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
    const cancel = await admin.post(`/api/v1/admin/subscriptions/${id}/cancel`, {});
    expect(cancel.statusCode).toBe(409);
    expect(cancel.json().message).toBe('Stripe is not configured, so this Stripe subscription cannot be cancelled there.');
    const row = await servicesOf(t.app).db.kysely.selectFrom('subscriptions').select('gateway_status').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.gateway_status).toBe('active');
  });
});
