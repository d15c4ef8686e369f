import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StripeDouble } from '../../peers/stripe-double.js';
import { multipartUpload } from '../uploads/support.js';
import { TestClient } from '../support/client.js';
import { signedInUser, uploadFile } from '../support/drive-factories.js';
import { setSettingsForTest } from '../support/settings.js';
import type { TestApp } from '../support/test-app.js';
import { billingApp, deliverAll, plans, shrinkPlans, subscribe } from './support.js';
import { servicesOf } from '../support/services-handle.js';

const upload = (client: TestClient, name: string, bytes: number) => {
  const { body, headers } = multipartUpload({ parentId: '0' }, { name, content: Buffer.alloc(bytes) });
  return client.request('POST', '/api/v1/file-entries', { body, headers });
};
const usage = async (client: TestClient) => (await client.get('/api/v1/user/space-usage')).json() as { used: number; available: number | null };

describe('plans: GET billing/products, and the plan decides the space', () => {
  let t: TestApp;
  let stripe: StripeDouble;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ t, stripe, close } = await billingApp());
    await servicesOf(t.app).settings.set({ 'uploads.max_size': 1024 * 1024 });
  });
  afterAll(() => close());

  describe('GET /billing/products', () => {
    it('lists the seeded plans to guests, as pagination.data, with prices and space', async () => {
      const res = await new TestClient(t.app).get('/api/v1/billing/products');
      expect(res.statusCode).toBe(200);
      const { data, total } = res.json().pagination;
      expect(total).toBe(3);
      expect(data.map((p: { name: string }) => p.name)).toEqual(['Free', 'Pro', 'Business']);
      const pro = data[1];
      expect(pro).toMatchObject({ free: false, recommended: true, hidden: false, available_space: 100 * 1024 ** 3 });
      expect(pro.feature_list.length).toBeGreaterThan(0);
      expect(pro.prices).toEqual([
        expect.objectContaining({ amount: 9.99, currency: 'USD', interval: 'month', interval_count: 1 }),
        expect.objectContaining({ amount: 99.99, currency: 'USD', interval: 'year', interval_count: 1 }),
      ]);
      expect(data[0]).toMatchObject({ free: true });
    });

    it('does not list hidden plans', async () => {
      const db = servicesOf(t.app).db.kysely;
      await db.updateTable('products').set({ hidden: 1 }).where('name', '=', 'Business').execute();
      try {
        const names = (await new TestClient(t.app).get('/api/v1/billing/products')).json().pagination.data.map((p: { name: string }) => p.name);
        expect(names).toEqual(['Free', 'Pro']);
      } finally {
        await db.updateTable('products').set({ hidden: 0 }).where('name', '=', 'Business').execute();
      }
    });
  });

  describe('space follows the plan', () => {
    it('gives a user without a subscription the free plan’s space (billing on)', async () => {
      await shrinkPlans(t.app, { Free: 2000, Pro: 10_000, Business: null });
      const { client } = await signedInUser(t.app);
      expect(await usage(client)).toEqual({ used: 0, available: 2000 });
      expect((await upload(client, 'a.bin', 1500)).statusCode).toBe(200);
      const refused = await upload(client, 'b.bin', 1000);
      expect(refused.statusCode).toBe(413);
      expect(refused.json().message).toMatch(/not enough storage space.*upgrade your plan/);
    });

    it('gives a subscriber their plan’s space, in space-usage and in the quota check alike', async () => {
      await shrinkPlans(t.app, { Free: 2000, Pro: 10_000, Business: null });
      const { client } = await signedInUser(t.app);
      const p = await plans(client);
      await subscribe(t.app, stripe, client, p.pro.id, p.pro.yearly);
      expect(await usage(client)).toEqual({ used: 0, available: 10_000 });
      expect((await upload(client, 'a.bin', 6000)).statusCode).toBe(200);
      expect((await upload(client, 'b.bin', 5000)).statusCode).toBe(413);
      const boot = (await client.get('/api/v1/bootstrap-data')).json();
      expect(boot.data.user.subscriptions).toEqual([expect.objectContaining({ valid: true })]);
    });

    it('an unlimited plan (space null) sets no limit', async () => {
      await shrinkPlans(t.app, { Free: 2000, Pro: 10_000, Business: null });
      const { client } = await signedInUser(t.app);
      const p = await plans(client);
      await subscribe(t.app, stripe, client, p.business.id, p.business.monthly);
      expect((await usage(client)).available).toBeNull();
    });

    it('keeps an admin’s per-user max_space restriction above the plan', async () => {
      await shrinkPlans(t.app, { Free: 2000 });
      const { client } = await signedInUser(t.app, { permissions: [{ name: 'files.create', restrictions: [{ name: 'max_space', value: 777 }] }] });
      expect((await usage(client)).available).toBe(777);
    });

    it('downgrade over the space: files stay, download and delete work, uploads wait and say why', async () => {
      await shrinkPlans(t.app, { Free: 2000, Pro: 10_000, Business: null });
      const { user, client } = await signedInUser(t.app);
      const p = await plans(client);
      const subscriptionId = await subscribe(t.app, stripe, client, p.pro.id, p.pro.monthly);
      const big = await uploadFile(t.app, user, { name: 'big.bin', content: Buffer.alloc(3000) });
      await uploadFile(t.app, user, { name: 'small.bin', content: Buffer.alloc(500) });
      expect((await client.post('/api/v1/billing/subscription/cancel')).statusCode).toBe(200);
      await deliverAll(t.app, stripe);
      await stripe.endPeriod(subscriptionId);
      await deliverAll(t.app, stripe);

      expect(await usage(client)).toEqual({ used: 3500, available: 2000 });
      const billing = (await client.get('/api/v1/billing/subscription')).json();
      expect(billing.space).toEqual({ used: 3500, available: 2000, over: true });
      expect(billing.plan.name).toBe('Free');
      const listing = (await client.get('/api/v1/drive/file-entries?folderId=0')).json().pagination.data.map((e: { name: string }) => e.name);
      expect(listing.sort()).toEqual(['big.bin', 'small.bin']);
      expect((await client.get(`/api/v1/file-entries/download?hashes=${big.hash}`)).statusCode).toBe(200);
      const refused = await upload(client, 'more.bin', 10);
      expect(refused.statusCode).toBe(413);
      expect(refused.json().message).toMatch(/There is not enough storage space for this upload: 0 B of .* left\. Delete some files or upgrade your plan\./);

      const del = await client.post('/api/v1/file-entries/delete', { entryIds: [big.hash], deleteForever: true });
      expect(del.statusCode, del.body).toBe(200);
      expect((await upload(client, 'more.bin', 10)).statusCode).toBe(200);
    });
  });
});

describe('billing without Stripe keys', () => {
  let t: TestApp;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ t, close } = await billingApp({ keys: false }));
  });
  afterAll(() => close());

  it('stays off: bootstrap billing.enable false, the site default decides the space, no checkout', async () => {
    await setSettingsForTest(t.app, { 'uploads.available_space': 4321 });
    const { client } = await signedInUser(t.app);
    const boot = (await client.get('/api/v1/bootstrap-data')).json();
    expect(boot.data.billing.enable).toBe(false);
    expect((await usage(client)).available).toBe(4321);
    const p = await plans(client);
    const res = await client.post('/api/v1/billing/checkout', { product_id: p.pro.id, price_id: p.pro.yearly });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Billing is not enabled on this site.');
  });

  it('is on once the keys are in the settings', async () => {
    await servicesOf(t.app).settings.set({ 'billing.stripe.secret_key': 'sk_test_drive_double', 'billing.stripe.webhook_secret': 'whsec_x' });
    try {
      const boot = (await new TestClient(t.app).get('/api/v1/bootstrap-data')).json();
      expect(boot.data.billing.enable).toBe(true);
      await servicesOf(t.app).settings.set({ 'billing.enable': false });
      const off = (await new TestClient(t.app).get('/api/v1/bootstrap-data')).json();
      expect(off.data.billing.enable).toBe(false);
    } finally {
      await servicesOf(t.app).settings.set({ 'billing.stripe.secret_key': '', 'billing.stripe.webhook_secret': '', 'billing.enable': true });
    }
  });
});
