import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StripeDouble } from '../../peers/stripe-double.js';
import { TestClient } from '../support/client.js';
import { signedInUser } from '../support/drive-factories.js';
import type { TestApp } from '../support/test-app.js';
import { billingApp, deliverAll, plans, postWebhook, shrinkPlans, subscribe, type Plans } from './support.js';
import { servicesOf } from '../support/services-handle.js';

type Call = { method: 'GET' | 'POST'; path: string; body?: object };

describe('billing calls: subscription, change plan, cancel, resume, invoices, payment method', () => {
  let t: TestApp;
  let stripe: StripeDouble;
  let close: () => Promise<void>;
  let p: Plans;
  beforeAll(async () => {
    ({ t, stripe, close } = await billingApp());
    p = await plans(new TestClient(t.app));
  });
  afterAll(() => close());

  const calls = (): Call[] => [
    { method: 'GET', path: '/api/v1/billing/subscription' },
    { method: 'POST', path: '/api/v1/billing/subscription/change-plan', body: { product_id: p.business.id, price_id: p.business.yearly } },
    { method: 'POST', path: '/api/v1/billing/subscription/cancel' },
    { method: 'POST', path: '/api/v1/billing/subscription/resume' },
    { method: 'GET', path: '/api/v1/billing/invoices' },
    { method: 'POST', path: '/api/v1/billing/portal' },
  ];
  const send = (client: TestClient, call: Call) => client.request(call.method, call.path, { body: call.body });

  it('should require authentication', async () => {
    for (const call of calls()) expect((await send(new TestClient(t.app), call)).statusCode, call.path).toBe(401);
  });

  it('answers 403 for every Stripe call while billing is switched off', async () => {
    const { client } = await signedInUser(t.app);
    await subscribe(t.app, stripe, client, p.pro.id, p.pro.monthly);
    await servicesOf(t.app).settings.set({ 'billing.enable': false });
    try {
      for (const call of calls().slice(1)) {
        const res = await send(client, call);
        expect(res.statusCode, call.path).toBe(403);
        expect(res.json().message).toBe('Billing is not enabled on this site.');
      }
    } finally {
      await servicesOf(t.app).settings.set({ 'billing.enable': true });
    }
  });

  it('answers 404 to a user without a subscription; their own state is the free plan', async () => {
    const { client } = await signedInUser(t.app);
    for (const call of calls().slice(1, 4).concat(calls()[5]!)) {
      const res = await send(client, call);
      expect(res.statusCode, call.path).toBe(404);
      expect(res.json().message).toBe('You have no subscription.');
    }
    expect((await client.get('/api/v1/billing/invoices')).json()).toEqual({ data: [] });
    expect((await client.get('/api/v1/billing/subscription')).json()).toMatchObject({
      subscription: null,
      plan: { name: 'Free', free: true },
      space: { used: 0, available: 10 * 1024 ** 3, over: false },
    });
  });

  it('only ever acts on the caller’s own subscription', async () => {
    const owner = await signedInUser(t.app);
    const subscriptionId = await subscribe(t.app, stripe, owner.client, p.pro.id, p.pro.monthly);
    const stranger = await signedInUser(t.app);
    expect((await stranger.client.post('/api/v1/billing/subscription/cancel')).statusCode).toBe(404);
    expect(stripe.subscriptions.get(subscriptionId)!.cancel_at_period_end).toBe(false);
    expect((await stranger.client.get('/api/v1/billing/invoices')).json()).toEqual({ data: [] });
  });

  it('changes plan with Stripe proration; the plan moves when the webhook comes', async () => {
    const { client } = await signedInUser(t.app);
    const subscriptionId = await subscribe(t.app, stripe, client, p.pro.id, p.pro.monthly);
    const bad = [
      [{ product_id: p.pro.id, price_id: p.pro.monthly }, 409, 'You are already on this plan.'],
      [{ product_id: p.free.id, price_id: p.free.priceId }, 409, 'To move to the free plan, cancel your subscription.'],
      [{ product_id: p.business.id, price_id: p.pro.yearly }, 404, 'This plan is not available.'],
    ] as const;
    for (const [body, status, message] of bad) {
      const res = await client.post('/api/v1/billing/subscription/change-plan', body);
      expect(res.statusCode).toBe(status);
      expect(res.json().message).toBe(message);
    }
    const res = await client.post('/api/v1/billing/subscription/change-plan', { product_id: p.business.id, price_id: p.business.yearly });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Your plan is changing to Business.');
    expect((await client.get('/api/v1/billing/subscription')).json().plan.name).toBe('Pro');
    expect(await deliverAll(t.app, stripe)).toEqual(['customer.subscription.updated']);
    const state = (await client.get('/api/v1/billing/subscription')).json();
    expect(state.plan.name).toBe('Business');
    expect(state.subscription.price).toMatchObject({ id: p.business.yearly, amount: 199.99, interval: 'year' });
    expect(stripe.subscriptions.get(subscriptionId)!.items.data[0]!.price.unit_amount).toBe(19999);
    expect(stripe.calls).toContain(`POST /v1/subscriptions/${subscriptionId}`);
  });

  it('warns, when moving to a smaller plan, that uploads wait while over its space', async () => {
    const { user, client } = await signedInUser(t.app);
    await subscribe(t.app, stripe, client, p.business.id, p.business.monthly);
    await shrinkPlans(t.app, { Pro: 100 });
    const { Readable } = await import('node:stream');
    const actor = await import('../support/drive-factories.js').then((m) => m.actorFor(t.app, user));
    await servicesOf(t.app).drive.files.createFileFromStream(actor, await servicesOf(t.app).drive.scope(actor, null), {
      parentId: null,
      name: 'big.bin',
      stream: Readable.from([Buffer.alloc(500)]),
    });
    const res = await client.post('/api/v1/billing/subscription/change-plan', { product_id: p.pro.id, price_id: p.pro.monthly });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Your plan is changing to Pro. You use 500 B of its 100 B: your files stay, but uploads wait until you are under it.');
    await deliverAll(t.app, stripe);
    expect((await client.get('/api/v1/user/space-usage')).json()).toEqual({ used: 500, available: 100 });
  });

  it('cancels at period end (grace period) and resumes', async () => {
    const { client } = await signedInUser(t.app);
    const subscriptionId = await subscribe(t.app, stripe, client, p.pro.id, p.pro.yearly);
    expect((await client.post('/api/v1/billing/subscription/resume')).statusCode).toBe(409);
    const cancel = await client.post('/api/v1/billing/subscription/cancel');
    expect(cancel.statusCode).toBe(200);
    expect(cancel.json().message).toBe('Your subscription is cancelled. Your plan stays until the end of the paid period.');
    expect(stripe.subscriptions.get(subscriptionId)!.cancel_at_period_end).toBe(true);
    await deliverAll(t.app, stripe);
    const cancelled = (await client.get('/api/v1/billing/subscription')).json();
    expect(cancelled.subscription).toMatchObject({ valid: true, on_grace_period: true, renews_at: null });
    expect(new Date(cancelled.subscription.ends_at).getTime()).toBeGreaterThan(Date.now());
    expect(cancelled.plan.name).toBe('Pro');
    expect((await client.post('/api/v1/billing/subscription/cancel')).statusCode).toBe(409);

    const resume = await client.post('/api/v1/billing/subscription/resume');
    expect(resume.statusCode).toBe(200);
    expect(resume.json().message).toBe('Your subscription is resumed.');
    await deliverAll(t.app, stripe);
    expect((await client.get('/api/v1/billing/subscription')).json().subscription).toMatchObject({ on_grace_period: false, ends_at: null });
  });

  it('lists invoices from Stripe with their links, newest first', async () => {
    const { client } = await signedInUser(t.app);
    const subscriptionId = await subscribe(t.app, stripe, client, p.pro.id, p.pro.monthly);
    await stripe.endPeriod(subscriptionId);
    await deliverAll(t.app, stripe);
    const { data } = (await client.get('/api/v1/billing/invoices')).json();
    expect(data).toHaveLength(2);
    expect(data[0]).toMatchObject({ status: 'paid', amount: 9.99, currency: 'USD' });
    expect(data[0].url).toMatch(new RegExp(`^${stripe.url}/invoices/in_`));
    expect(data[0].pdf).toMatch(/\.pdf$/);
  });

  it('opens a Stripe Billing Portal session for the payment method, returning to /billing', async () => {
    const { client } = await signedInUser(t.app);
    await subscribe(t.app, stripe, client, p.pro.id, p.pro.monthly);
    const res = await client.post('/api/v1/billing/portal');
    expect(res.statusCode).toBe(200);
    const url = new URL(res.json().url);
    expect(url.origin).toBe(stripe.url);
    expect(url.searchParams.get('return')).toBe(`${t.config.appUrl}/billing`);
  });

  it('answers 502 with a plain message when Stripe cannot be reached', async () => {
    const { client } = await signedInUser(t.app);
    await subscribe(t.app, stripe, client, p.pro.id, p.pro.monthly);
    await servicesOf(t.app).settings.set({ 'billing.stripe.secret_key': 'sk_test_wrong' });
    try {
      const res = await client.get('/api/v1/billing/invoices');
      expect(res.statusCode).toBe(502);
      expect(res.json()).toEqual({ message: 'The payment provider could not be reached. Please try again later.' });
    } finally {
      await servicesOf(t.app).settings.set({ 'billing.stripe.secret_key': '' });
    }
  });

  it('cancels the Stripe subscription at once when the account is deleted', async () => {
    const { user, client } = await signedInUser(t.app);
    const subscriptionId = await subscribe(t.app, stripe, client, p.pro.id, p.pro.monthly);
    const res = await client.request('DELETE', `/api/v1/users/${user.id}?deleteCurrentUser=true`, { body: { current_password: user.password } });
    expect(res.statusCode, res.body).toBe(200);
    expect(stripe.subscriptions.get(subscriptionId)!.status).toBe('canceled');
    expect(await servicesOf(t.app).db.kysely.selectFrom('subscriptions').selectAll().where('user_id', '=', user.id).execute()).toEqual([]);
    // The deletion event that follows names a customer the site no longer knows: refused, nothing made.
    const [deleted] = stripe.drain();
    const answer = await postWebhook(t.app, deleted!.payload, deleted!.header);
    expect(answer.statusCode).toBe(400);
  });
});
