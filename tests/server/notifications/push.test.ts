import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser } from '../support/drive-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { startPushService, type LocalPushService } from '../../peers/push-service.js';

/**
 * Web push end to end on this machine: the server encrypts (aes128gcm) and
 * signs (VAPID) a push to web-push-testing, which checks the signature
 * against the key the subscription was made with and decrypts the payload.
 */
describe('web push (the browser channel)', () => {
  let t: TestApp;
  let push: LocalPushService;

  beforeAll(async () => {
    t = await createTestApp({ env: { PUSH_ALLOW_LOOPBACK: 'true' } });
    push = await startPushService();
  });
  afterAll(async () => {
    await t.close();
    await push.close();
  });

  it('delivers a notification to a subscribed browser, signed and encrypted, and forgets a subscription the push service expired', async () => {
    const { client, user } = await signedInUser(t.app);
    const key = (await client.get('/api/v1/notifications/push/key')).json().publicKey as string;
    expect(key).toMatch(/^[A-Za-z0-9_-]{87}$/);
    const subscription = await push.subscribe(key);
    const saved = await client.post('/api/v1/notifications/push/subscriptions', subscription);
    expect(saved.statusCode, saved.body).toBe(200);

    await t.app.services.notifier.notify(user.id, 'file-entry-shared', () => ({
      image: 'people',
      lines: [{ content: 'Ada shared Plans with you' }, { content: 'Open it from Shared with me.' }],
      mainAction: { label: 'Open', action: '/drive/shares' },
    }));
    await t.app.services.jobs.idle();
    const [message] = await push.messages(subscription.endpoint);
    expect(JSON.parse(message!)).toMatchObject({ title: 'Ada shared Plans with you', body: 'Open it from Shared with me.', url: '/drive/shares' });

    await push.expire(subscription.endpoint);
    await t.app.services.notifier.notify(user.id, 'file-entry-shared', () => ({
      image: 'people',
      lines: [{ content: 'again' }],
      mainAction: { label: 'Open', action: '/drive/shares' },
    }));
    await t.app.services.jobs.idle();
    const left = await t.app.services.db.kysely.selectFrom('push_subscriptions').select('id').where('user_id', '=', user.id).execute();
    expect(left).toEqual([]);
  });

  it('sends nothing by push when the user turned the browser channel off', async () => {
    const { client, user } = await signedInUser(t.app);
    const subscription = await push.subscribe((await client.get('/api/v1/notifications/push/key')).json().publicKey);
    await client.post('/api/v1/notifications/push/subscriptions', subscription);
    await client.request('PUT', '/api/v1/notifications/me/subscriptions', { body: { selections: [{ notif_id: 'A01', channels: { browser: false } }] } });
    await t.app.services.notifier.notify(user.id, 'file-entry-shared', () => ({
      image: 'people',
      lines: [{ content: 'quiet' }],
      mainAction: { label: 'Open', action: '/drive/shares' },
    }));
    await t.app.services.jobs.idle();
    expect(await push.messages(subscription.endpoint)).toEqual([]);
  });

  it('unsubscribes this browser', async () => {
    const { client, user } = await signedInUser(t.app);
    const subscription = await push.subscribe((await client.get('/api/v1/notifications/push/key')).json().publicKey);
    await client.post('/api/v1/notifications/push/subscriptions', subscription);
    await client.post('/api/v1/notifications/push/unsubscribe', { endpoint: subscription.endpoint });
    expect(await t.app.services.db.kysely.selectFrom('push_subscriptions').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
  });
});

describe('push endpoints a browser may register', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it.each([
    ['http://push.example.com/x', 'The push endpoint must use https.'],
    ['https://10.0.0.8/x', 'The push endpoint points to a private network.'],
    ['https://127.0.0.1/x', 'The push endpoint points to a private network.'],
    ['https://[::ffff:7f00:1]/x', 'The push endpoint points to a private network.'],
    ['http://localhost:9999/x', 'The push endpoint must use https.'],
    ['not a url', 'The push endpoint is not a valid URL.'],
  ])('refuses %s', async (endpoint, message) => {
    const { client } = await signedInUser(t.app);
    const response = await client.post('/api/v1/notifications/push/subscriptions', { endpoint, keys: { p256dh: 'BNc', auth: 'x' } });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors.endpoint).toEqual([message]);
  });

  it('keeps the VAPID key pair across restarts: it is made once and stored', async () => {
    const { client } = await signedInUser(t.app);
    const first = (await client.get('/api/v1/notifications/push/key')).json().publicKey;
    expect(await t.app.services.vapidPublicKey()).toBe(first);
    const stored = await t.app.services.db.kysely
      .selectFrom('settings')
      .select(['value', 'private'])
      .where('key', '=', 'notifications.vapid')
      .executeTakeFirstOrThrow();
    expect(stored.private).toBe(1);
    expect(JSON.parse(stored.value).publicKey).toBe(first);
  });
});
