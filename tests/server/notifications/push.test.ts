import crypto from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateVapidKeys, sendPush } from '../../../server/modules/notifications/push.js';
import { signedInUser } from '../support/drive-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { startPushService, type LocalPushService } from '../../peers/push-service.js';
import { servicesOf } from '../support/services-handle.js';

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

    await servicesOf(t.app).notifications.notifier.notify(user.id, 'file-entry-shared', () => ({
      image: 'people',
      lines: [{ content: 'Ada shared Plans with you' }, { content: 'Open it from Shared with me.' }],
      mainAction: { label: 'Open', action: '/drive/shares' },
    }));
    await servicesOf(t.app).jobs.idle();
    const [message] = await push.messages(subscription.endpoint);
    expect(JSON.parse(message!)).toMatchObject({
      title: 'Ada shared Plans with you',
      body: 'Open it from Shared with me.',
      url: '/drive/shares',
      unreadCount: 1,
    });

    await push.expire(subscription.endpoint);
    await servicesOf(t.app).notifications.notifier.notify(user.id, 'file-entry-shared', () => ({
      image: 'people',
      lines: [{ content: 'again' }],
      mainAction: { label: 'Open', action: '/drive/shares' },
    }));
    await servicesOf(t.app).jobs.idle();
    const left = await servicesOf(t.app).db.kysely.selectFrom('push_subscriptions').select('id').where('user_id', '=', user.id).execute();
    expect(left).toEqual([]);
  });

  it('sends nothing by push when the user turned the browser channel off', async () => {
    const { client, user } = await signedInUser(t.app);
    const subscription = await push.subscribe((await client.get('/api/v1/notifications/push/key')).json().publicKey);
    await client.post('/api/v1/notifications/push/subscriptions', subscription);
    await client.request('PUT', '/api/v1/notifications/me/subscriptions', { body: { selections: [{ notif_id: 'A01', channels: { browser: false } }] } });
    await servicesOf(t.app).notifications.notifier.notify(user.id, 'file-entry-shared', () => ({
      image: 'people',
      lines: [{ content: 'quiet' }],
      mainAction: { label: 'Open', action: '/drive/shares' },
    }));
    await servicesOf(t.app).jobs.idle();
    expect(await push.messages(subscription.endpoint)).toEqual([]);
  });

  it('unsubscribes this browser', async () => {
    const { client, user } = await signedInUser(t.app);
    const subscription = await push.subscribe((await client.get('/api/v1/notifications/push/key')).json().publicKey);
    await client.post('/api/v1/notifications/push/subscriptions', subscription);
    await client.post('/api/v1/notifications/push/unsubscribe', { endpoint: subscription.endpoint });
    expect(await servicesOf(t.app).db.kysely.selectFrom('push_subscriptions').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
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
    expect(await servicesOf(t.app).notifications.vapidPublicKey()).toBe(first);
    const stored = await servicesOf(t.app)
      .db.kysely.selectFrom('settings')
      .select(['value', 'private'])
      .where('key', '=', 'notifications.vapid')
      .executeTakeFirstOrThrow();
    expect(stored.private).toBe(1);
    expect(JSON.parse(stored.value).publicKey).toBe(first);
  });
});

/**
 * Issue 30 finding 11: the endpoint's name is resolved once, checked, and the
 * connection goes to that checked address. A name that answers a public
 * address to the check and a private one a moment later (DNS rebinding) never
 * gets the second answer used. 127.0.0.2 stands in for the internet and
 * 127.0.0.1 for the private network; both listen on one port, as one name's
 * two answers would, and count the connections they get. The name is
 * `localhost`, so a sender that asked the system resolver again at connect
 * time would land on the private side too.
 */
describe('push connections go only to the address that was checked', () => {
  const servers: net.Server[] = [];
  const seen = { public: [] as Buffer[], private: [] as Buffer[] };
  let port = 0;

  const listen = (host: string, into: Buffer[], at: number) =>
    new Promise<net.Server>((resolve, reject) => {
      const server = net.createServer((socket) => {
        // The first bytes are the TLS ClientHello; that is all we need to see.
        socket.once('data', (chunk: Buffer) => {
          into.push(chunk);
          socket.destroy();
        });
      });
      server.once('error', reject);
      server.listen(at, host, () => resolve(server));
    });

  beforeAll(async () => {
    const first = await listen('127.0.0.2', seen.public, 0);
    port = (first.address() as net.AddressInfo).port;
    servers.push(first, await listen('127.0.0.1', seen.private, port));
  });
  afterAll(() => Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve)))));

  const target = () => {
    const ecdh = crypto.createECDH('prime256v1');
    ecdh.generateKeys();
    return { endpoint: `https://localhost:${port}/send/abc`, p256dh: ecdh.getPublicKey('base64url'), auth: crypto.randomBytes(16).toString('base64url') };
  };
  /** A name that answers `answers` in turn, the last one for good. */
  const resolver = (...answers: string[][]) => {
    const asked: string[] = [];
    return {
      asked,
      resolve: async (hostname: string) => {
        asked.push(hostname);
        return answers[Math.min(asked.length - 1, answers.length - 1)]!;
      },
    };
  };
  const isBlocked = (address: string) => address !== '127.0.0.2';

  it('connects to the public address it checked although the name now answers a private one, naming the host in TLS', async () => {
    seen.public.length = 0;
    seen.private.length = 0;
    const name = resolver(['127.0.0.2'], ['127.0.0.1']);
    const sent = sendPush(target(), '{}', generateVapidKeys(), 'mailto:ops@example.com', { allowLoopback: false, resolve: name.resolve, isBlocked });
    // Our stand-in speaks no TLS, so the send fails after the connection was made; where it went is what counts.
    await expect(sent).rejects.toThrow();
    expect(name.asked).toEqual(['localhost']);
    expect(seen.private).toHaveLength(0);
    expect(seen.public).toHaveLength(1);
    expect(seen.public[0]!.includes(Buffer.from('localhost'))).toBe(true);
  });

  it('sends nothing when the check itself sees a private address', async () => {
    seen.public.length = 0;
    seen.private.length = 0;
    const name = resolver(['127.0.0.1'], ['127.0.0.2']);
    const outcome = await sendPush(target(), '{}', generateVapidKeys(), 'mailto:ops@example.com', { allowLoopback: false, resolve: name.resolve, isBlocked });
    expect(outcome).toBe('gone');
    expect(name.asked).toEqual(['localhost']);
    expect(seen.public).toHaveLength(0);
    expect(seen.private).toHaveLength(0);
  });
});
