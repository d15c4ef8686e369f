import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StripeDouble } from '../../peers/stripe-double.js';
import { TestClient } from '../support/client.js';
import { signedInUser } from '../support/drive-factories.js';
import type { TestApp } from '../support/test-app.js';
import { billingApp, deliverAll, plans, postWebhook, subscribe, WEBHOOK_SECRET, type Plans } from './support.js';
import { servicesOf } from '../support/services-handle.js';

describe('checkout and Stripe webhooks', () => {
  let t: TestApp;
  let stripe: StripeDouble;
  let close: () => Promise<void>;
  let p: Plans;
  beforeAll(async () => {
    ({ t, stripe, close } = await billingApp());
    p = await plans(new TestClient(t.app));
  });
  afterAll(() => close());

  const subscriptionRows = (userId: number) => servicesOf(t.app).db.kysely.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).execute();
  const billing = async (client: TestClient) => (await client.get('/api/v1/billing/subscription')).json();

  describe('POST /billing/checkout', () => {
    it('should require authentication', async () => {
      const res = await new TestClient(t.app).post('/api/v1/billing/checkout', { product_id: p.pro.id, price_id: p.pro.yearly });
      expect(res.statusCode).toBe(401);
    });

    it('answers 404 for an unknown plan, an unknown price, a price of another plan and a hidden plan', async () => {
      const { client } = await signedInUser(t.app);
      // The double is shared by the file's tests: only the calls from here on are this test's.
      const callsBefore = stripe.calls.length;
      const tries = [
        { product_id: 9999, price_id: p.pro.yearly },
        { product_id: p.pro.id, price_id: 9999 },
        { product_id: p.pro.id, price_id: p.business.yearly },
      ];
      for (const body of tries) {
        const res = await client.post('/api/v1/billing/checkout', body);
        expect(res.statusCode, JSON.stringify(body)).toBe(404);
        expect(res.json().message).toBe('This plan is not available.');
      }
      const db = servicesOf(t.app).db.kysely;
      await db.updateTable('products').set({ hidden: 1 }).where('id', '=', p.business.id).execute();
      try {
        const res = await client.post('/api/v1/billing/checkout', { product_id: p.business.id, price_id: p.business.yearly });
        expect(res.statusCode).toBe(404);
      } finally {
        await db.updateTable('products').set({ hidden: 0 }).where('id', '=', p.business.id).execute();
      }
      expect(stripe.calls.slice(callsBefore).filter((c) => c.includes('checkout'))).toEqual([]);
    });

    it('answers 403 while billing is switched off', async () => {
      const { client } = await signedInUser(t.app);
      await servicesOf(t.app).settings.set({ 'billing.enable': false });
      try {
        const res = await client.post('/api/v1/billing/checkout', { product_id: p.pro.id, price_id: p.pro.yearly });
        expect(res.statusCode).toBe(403);
        expect(res.json().message).toBe('Billing is not enabled on this site.');
      } finally {
        await servicesOf(t.app).settings.set({ 'billing.enable': true });
      }
    });

    it('refuses a checkout of the free plan', async () => {
      const { client } = await signedInUser(t.app);
      const res = await client.post('/api/v1/billing/checkout', { product_id: p.free.id, price_id: p.free.priceId });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe('The free plan needs no checkout.');
    });

    it('creates a subscription-mode Checkout Session at the server’s own amount, ignoring any amount the client sends', async () => {
      const { user, client } = await signedInUser(t.app);
      const res = await client.post('/api/v1/billing/checkout', { product_id: p.pro.id, price_id: p.pro.yearly, amount: 1, unit_amount: 1 });
      expect(res.statusCode, res.body).toBe(200);
      const url = new URL(res.json().url);
      expect(url.origin).toBe(stripe.url);
      const session = stripe.sessions.get(url.pathname.split('/').pop()!)!;
      expect(session).toMatchObject({ mode: 'subscription', client_reference_id: String(user.id), status: 'open' });
      expect(session.success_url).toMatch(new RegExp(`/checkout/${p.pro.id}/${p.pro.yearly}/done\\?session_id=\\{CHECKOUT_SESSION_ID\\}$`));
      const price = stripe.prices.get(session.line_items_price)!;
      expect(price).toMatchObject({ unit_amount: 9999, currency: 'usd', recurring: { interval: 'year', interval_count: 1 } });
      // Nothing changes until Stripe says so through the webhook.
      expect(await subscriptionRows(user.id)).toEqual([]);
    });

    it('refuses a checkout for the plan one already has, and for another while subscribed', async () => {
      const { client } = await signedInUser(t.app);
      await subscribe(t.app, stripe, client, p.pro.id, p.pro.yearly);
      const same = await client.post('/api/v1/billing/checkout', { product_id: p.pro.id, price_id: p.pro.yearly });
      expect(same.statusCode).toBe(409);
      expect(same.json().message).toBe('You are already on this plan.');
      const other = await client.post('/api/v1/billing/checkout', { product_id: p.business.id, price_id: p.business.yearly });
      expect(other.statusCode).toBe(409);
    });
  });

  describe('POST /billing/stripe/webhook', () => {
    it('checkout.session.completed, customer.subscription.created and invoice.paid make a valid subscription', async () => {
      const { user, client } = await signedInUser(t.app);
      const res = await client.post('/api/v1/billing/checkout', { product_id: p.pro.id, price_id: p.pro.monthly });
      await stripe.completeCheckout(new URL(res.json().url).pathname.split('/').pop()!);
      const types = await deliverAll(t.app, stripe);
      expect(types).toEqual(['customer.subscription.created', 'invoice.paid', 'checkout.session.completed']);
      const [row] = await subscriptionRows(user.id);
      expect(row).toMatchObject({
        product_id: p.pro.id,
        price_id: p.pro.monthly,
        gateway_name: 'stripe',
        gateway_status: 'active',
        ends_at: null,
        cancelled_at: null,
      });
      expect(row!.gateway_id).toMatch(/^sub_/);
      expect(new Date(row!.renews_at!).getTime()).toBeGreaterThan(Date.now() + 25 * 24 * 3600 * 1000);
      const state = await billing(client);
      expect(state.subscription).toMatchObject({ valid: true, status: 'active', on_grace_period: false });
      expect(state.plan.name).toBe('Pro');
    });

    it('refuses a wrong signature, a missing one, a stale one and another secret’s, changing nothing', async () => {
      const { user, client } = await signedInUser(t.app);
      const res = await client.post('/api/v1/billing/checkout', { product_id: p.pro.id, price_id: p.pro.monthly });
      await stripe.completeCheckout(new URL(res.json().url).pathname.split('/').pop()!);
      const deliveries = stripe.drain();
      for (const delivery of deliveries) {
        const forged = [
          postWebhook(t.app, delivery.payload, null),
          postWebhook(t.app, delivery.payload, 't=1,v1=deadbeef'),
          postWebhook(t.app, delivery.payload, stripe.sign(delivery.payload, { secret: 'whsec_someone_else' })),
          postWebhook(t.app, delivery.payload, stripe.sign(delivery.payload, { timestamp: Math.floor(Date.now() / 1000) - 3600 })),
          postWebhook(t.app, delivery.payload.replace('"livemode":false', '"livemode":true'), delivery.header),
        ];
        for (const answer of await Promise.all(forged)) {
          expect(answer.statusCode).toBe(400);
          expect(answer.json().message).toBe('The webhook signature is not valid.');
        }
      }
      expect(await subscriptionRows(user.id)).toEqual([]);
      expect(
        await servicesOf(t.app)
          .db.kysely.selectFrom('billing_events')
          .select('id')
          .where(
            'id',
            'in',
            deliveries.map((d) => d.event.id),
          )
          .execute(),
      ).toEqual([]);
      // The genuine deliveries still work afterwards.
      for (const delivery of deliveries) expect((await postWebhook(t.app, delivery.payload, delivery.header)).statusCode).toBe(200);
      expect(await subscriptionRows(user.id)).toHaveLength(1);
      expect(WEBHOOK_SECRET).toMatch(/^whsec_/);
    });

    it('handles a replayed event once: the second delivery is acknowledged and changes nothing', async () => {
      const { user, client } = await signedInUser(t.app);
      const subscriptionId = await subscribe(t.app, stripe, client, p.pro.id, p.pro.monthly);
      expect((await client.post('/api/v1/billing/subscription/cancel')).statusCode).toBe(200);
      const [cancelled] = stripe.drain();
      expect(cancelled!.event.type).toBe('customer.subscription.updated');
      const first = await postWebhook(t.app, cancelled!.payload, cancelled!.header);
      expect(first.json()).toEqual({ received: true, duplicate: false });
      const endsAt = (await subscriptionRows(user.id))[0]!.ends_at;
      expect(endsAt).not.toBeNull();

      // Stripe resumes it; then the old "cancelled" event arrives again: it must not cancel again.
      expect((await client.post('/api/v1/billing/subscription/resume')).statusCode).toBe(200);
      await deliverAll(t.app, stripe);
      expect((await subscriptionRows(user.id))[0]!.ends_at).toBeNull();
      const replay = await postWebhook(t.app, cancelled!.payload, stripe.sign(cancelled!.payload));
      expect(replay.statusCode).toBe(200);
      expect(replay.json()).toEqual({ received: true, duplicate: true });
      expect((await subscriptionRows(user.id))[0]!.ends_at).toBeNull();
      expect(stripe.subscriptions.get(subscriptionId)!.cancel_at_period_end).toBe(false);
    });

    it('invoice.payment_failed leaves a past-due subscription valid; customer.subscription.deleted ends it', async () => {
      const { user, client } = await signedInUser(t.app);
      const subscriptionId = await subscribe(t.app, stripe, client, p.business.id, p.business.yearly);
      await stripe.failPayment(subscriptionId);
      expect(await deliverAll(t.app, stripe)).toEqual(['invoice.payment_failed', 'customer.subscription.updated']);
      expect(await billing(client)).toMatchObject({ subscription: { status: 'past_due', valid: true }, plan: { name: 'Business' } });

      await stripe.endPeriod(subscriptionId);
      expect(await deliverAll(t.app, stripe)).toEqual(['invoice.paid', 'customer.subscription.updated']);
      expect((await subscriptionRows(user.id))[0]!.gateway_status).toBe('active');

      // Stripe ends it (an admin in Stripe's dashboard, or unpaid past the retries).
      await fetch(`${stripe.url}/v1/subscriptions/${subscriptionId}`, { method: 'DELETE', headers: { authorization: 'Bearer sk_test_drive_double' } });
      expect(await deliverAll(t.app, stripe)).toEqual(['customer.subscription.deleted']);
      const state = await billing(client);
      expect(state.subscription).toMatchObject({ status: 'canceled', valid: false });
      expect(state.plan.name).toBe('Free');
      const boot = (await client.get('/api/v1/bootstrap-data')).json();
      expect(boot.data.user.subscriptions).toEqual([expect.objectContaining({ valid: false })]);
    });

    it('refuses an event for a price this site does not sell, changing nothing', async () => {
      const { user, client } = await signedInUser(t.app);
      const subscriptionId = await subscribe(t.app, stripe, client, p.pro.id, p.pro.monthly);
      const stray = await fetch(`${stripe.url}/v1/products`, {
        method: 'POST',
        headers: { authorization: 'Bearer sk_test_drive_double', 'content-type': 'application/x-www-form-urlencoded' },
        body: 'name=Elsewhere',
      }).then((r) => r.json() as Promise<{ id: string }>);
      const price = await fetch(`${stripe.url}/v1/prices`, {
        method: 'POST',
        headers: { authorization: 'Bearer sk_test_drive_double', 'content-type': 'application/x-www-form-urlencoded' },
        body: `product=${stray.id}&unit_amount=1&currency=usd&recurring[interval]=month`,
      }).then((r) => r.json() as Promise<{ id: string }>);
      const item = stripe.subscriptions.get(subscriptionId)!.items.data[0]!;
      await fetch(`${stripe.url}/v1/subscriptions/${subscriptionId}`, {
        method: 'POST',
        headers: { authorization: 'Bearer sk_test_drive_double', 'content-type': 'application/x-www-form-urlencoded' },
        body: `items[0][id]=${item.id}&items[0][price]=${price.id}`,
      });
      const [delivery] = stripe.drain();
      const res = await postWebhook(t.app, delivery!.payload, delivery!.header);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('The subscription is for a price this site does not sell.');
      expect((await subscriptionRows(user.id))[0]).toMatchObject({ price_id: p.pro.monthly, gateway_status: 'active' });
      expect(await servicesOf(t.app).billing.billing.planSpace(user.id)).toBe(100 * 1024 ** 3);
    });

    it('acknowledges events it does not act on, once', async () => {
      const payload = JSON.stringify({ id: 'evt_other_1', object: 'event', type: 'customer.updated', created: 1, data: { object: { id: 'cus_x' } } });
      expect((await postWebhook(t.app, payload, stripe.sign(payload))).json()).toEqual({ received: true, duplicate: false });
      expect((await postWebhook(t.app, payload, stripe.sign(payload))).json()).toEqual({ received: true, duplicate: true });
    });
  });
});

describe('the webhook without a configured secret', () => {
  let t: TestApp;
  let stripe: StripeDouble;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ t, stripe, close } = await billingApp({ keys: false }));
  });
  afterAll(() => close());

  it('refuses every event (never trusts an unsigned one)', async () => {
    const payload = JSON.stringify({ id: 'evt_1', object: 'event', type: 'customer.subscription.created', data: { object: { id: 'sub_1' } } });
    const res = await postWebhook(t.app, payload, stripe.sign(payload));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Billing is not configured on this site.');
  });
});
