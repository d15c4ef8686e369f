import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { billingApp } from '../billing/support.js';
import type { TestClient } from '../support/client.js';
import { signedInUser } from '../support/drive-factories.js';
import type { TestApp } from '../support/test-app.js';
import { upload } from './support.js';
import { servicesOf } from '../support/services-handle.js';

const DAY = 24 * 60 * 60 * 1000;

// A plan's trash_days (issue 34): set in the admin's plan form, it overrides
// the site's trash.keep_days for the plan's subscribers, and the retention
// pass purges their trash on that time; a plan that sets none leaves the site's.

describe("a plan's trash retention", () => {
  let t: TestApp;
  let close: () => Promise<void>;
  let admin: TestClient;
  beforeAll(async () => {
    ({ t, close } = await billingApp({ keys: false }));
    admin = (await signedInUser(t.app, { roles: ['admin'] })).client;
  });
  afterAll(() => close());
  afterEach(() => vi.useRealTimers());

  async function subscribe(userId: number, plan: { id: number; prices: { id: number }[] }) {
    const now = new Date().toISOString();
    await servicesOf(t.app)
      .db.kysely.insertInto('subscriptions')
      .values({
        user_id: userId,
        product_id: plan.id,
        price_id: plan.prices[0]!.id,
        gateway_name: 'stripe',
        gateway_id: `sub_${userId}`,
        gateway_customer_id: null,
        gateway_status: 'active',
        renews_at: null,
        ends_at: null,
        cancelled_at: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }

  it('is saved with the plan (1–3650 days, or none), and shown back', async () => {
    const body = { name: 'Keeper', feature_list: [], available_space: null, trash_days: 7, prices: [{ amount: 100, currency: 'USD', interval: 'month' }] };
    const created = await admin.post('/api/v1/admin/plans', body);
    expect(created.statusCode, created.body).toBe(200);
    const plan = created.json().plan as { id: number; trash_days: number | null };
    expect(plan.trash_days).toBe(7);
    const edited = await admin.request('PUT', `/api/v1/admin/plans/${plan.id}`, { body: { ...body, trash_days: null } });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().plan.trash_days).toBeNull();
    for (const bad of [0, 3651, 1.5]) {
      const refused = await admin.request('PUT', `/api/v1/admin/plans/${plan.id}`, { body: { ...body, trash_days: bad } });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().errors.trash_days).toBeDefined();
    }
  });

  it("keeps a subscriber's trash for the plan's days and the pass purges it then, not a second before", async () => {
    const trashedAt = Date.parse('2026-04-01T08:00:00.000Z');
    vi.useFakeTimers({ toFake: ['Date'], now: trashedAt });
    const created = await admin.post('/api/v1/admin/plans', {
      name: 'Short trash',
      feature_list: [],
      available_space: null,
      trash_days: 5,
      prices: [{ amount: 100, currency: 'USD', interval: 'month' }],
    });
    const plan = created.json().plan as { id: number; prices: { id: number }[] };
    const subscriber = await signedInUser(t.app);
    await subscribe(subscriber.user.id, plan);
    const other = await signedInUser(t.app);

    const trashOne = async (client: TestClient) => {
      const { id } = (await upload(client, 'gone.txt', 'bytes')).json().fileEntry as { id: string };
      await client.post('/api/v1/file-entries/delete', { entryIds: [id] });
      const trash = (await client.get('/api/v1/drive/file-entries?deletedOnly=true')).json().pagination.data as { purge_at: string }[];
      return Date.parse(trash[0]!.purge_at);
    };
    const purgeAt = await trashOne(subscriber.client);
    expect(purgeAt).toBe(trashedAt + 5 * DAY);
    // No plan of theirs sets a time: the site's 30 days.
    expect(await trashOne(other.client)).toBe(trashedAt + 30 * DAY);

    const inTrash = async () => {
      await subscriber.client.login(subscriber.user.email, subscriber.user.password);
      return (await subscriber.client.get('/api/v1/drive/file-entries?deletedOnly=true')).json().pagination.data.length as number;
    };
    vi.setSystemTime(purgeAt - 1000);
    await servicesOf(t.app).drive.retention.run();
    expect(await inTrash()).toBe(1);
    vi.setSystemTime(purgeAt);
    await servicesOf(t.app).drive.retention.run();
    expect(await inTrash()).toBe(0);
  });
});
