import type { FastifyInstance } from 'fastify';
import { expect, onTestFinished } from 'vitest';
import { startStripeDouble, type StripeDouble } from '../../peers/stripe-double.js';
import type { TestClient } from '../support/client.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

export const SECRET_KEY = 'sk_test_drive_double';
export const WEBHOOK_SECRET = 'whsec_drive_double_secret';
export const WEBHOOK = '/api/v1/billing/stripe/webhook';

/** An app whose real `stripe` client talks to a local Stripe double; events wait in its outbox. */
export async function billingApp(options: { keys?: boolean } = {}): Promise<{ t: TestApp; stripe: StripeDouble; close(): Promise<void> }> {
  const stripe = await startStripeDouble({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET });
  const env: Record<string, string> = { STRIPE_API_BASE: stripe.url };
  if (options.keys !== false) Object.assign(env, { STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET });
  const t = await createTestApp({ env });
  return {
    t,
    stripe,
    async close() {
      await t.close();
      await stripe.close();
    },
  };
}

/** Posts a payload to the webhook as Stripe would, with the given signature header. */
export function postWebhook(app: FastifyInstance, payload: string, signature: string | null) {
  return app.inject({
    method: 'POST',
    url: WEBHOOK,
    headers: { 'content-type': 'application/json', ...(signature === null ? {} : { 'stripe-signature': signature }) },
    payload,
  });
}

/** Delivers every waiting event in order; each must be accepted. Answers the events' types. */
export async function deliverAll(app: FastifyInstance, stripe: StripeDouble): Promise<string[]> {
  const types: string[] = [];
  for (const delivery of stripe.drain()) {
    const response = await postWebhook(app, delivery.payload, delivery.header);
    expect(response.statusCode, response.body).toBe(200);
    types.push(delivery.event.type);
  }
  return types;
}

export interface Plans {
  free: { id: number; priceId: number };
  pro: { id: number; monthly: number; yearly: number };
  business: { id: number; monthly: number; yearly: number };
}

/** The seeded plans' ids, from the products call. */
export async function plans(client: TestClient): Promise<Plans> {
  const products = (await client.get('/api/v1/billing/products')).json().pagination.data as {
    id: number;
    name: string;
    prices: { id: number; interval: string }[];
  }[];
  const byName = (name: string) => products.find((p) => p.name === name)!;
  const priceOf = (name: string, interval: string) => byName(name).prices.find((p) => p.interval === interval)!.id;
  return {
    free: { id: byName('Free').id, priceId: byName('Free').prices[0]!.id },
    pro: { id: byName('Pro').id, monthly: priceOf('Pro', 'month'), yearly: priceOf('Pro', 'year') },
    business: { id: byName('Business').id, monthly: priceOf('Business', 'month'), yearly: priceOf('Business', 'year') },
  };
}

/** Checkout through the API and the double's hosted page, then the webhooks: the user is subscribed. */
export async function subscribe(app: FastifyInstance, stripe: StripeDouble, client: TestClient, productId: number, priceId: number): Promise<string> {
  const res = await client.post('/api/v1/billing/checkout', { product_id: productId, price_id: priceId });
  expect(res.statusCode, res.body).toBe(200);
  const sessionId = new URL(res.json().url as string).pathname.split('/').pop()!;
  const session = await stripe.completeCheckout(sessionId);
  await deliverAll(app, stripe);
  return session.subscription as string;
}

/**
 * Small plan sizes so a test can fill them, for the running test only: the
 * seeded sizes come back when it finishes, so the other tests of the file
 * (which share its app) see the plans as seeded, in whatever order they run.
 */
export async function shrinkPlans(app: FastifyInstance, sizes: Record<string, number | null>): Promise<void> {
  const db = servicesOf(app).db.kysely;
  const before = await db.selectFrom('products').select(['id', 'available_space']).where('name', 'in', Object.keys(sizes)).execute();
  onTestFinished(async () => {
    for (const { id, available_space } of before) await db.updateTable('products').set({ available_space }).where('id', '=', id).execute();
  });
  for (const [name, size] of Object.entries(sizes)) {
    await db.updateTable('products').set({ available_space: size }).where('name', '=', name).execute();
  }
}
