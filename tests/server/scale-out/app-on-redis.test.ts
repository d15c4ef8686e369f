import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BullJobs } from '../../../server/lib/bullmq-jobs.js';
import { RedisBroadcast } from '../../../server/lib/broadcast.js';
import { connectRedis } from '../../../server/lib/redis.js';
import { RedisRateLimiter } from '../../../server/lib/redis-rate-limiter.js';
import { RedisLocker } from '../../../server/modules/uploads/redis-locker.js';
import { TestClient } from '../support/client.js';
import { pngBytes, signedInUser, uploadFile } from '../support/drive-factories.js';
import { createUser } from '../support/factories.js';
import { mailsTo } from '../support/mail.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { dropPrefix, randomPrefix, REDIS_URL, redisReachable, redisSkipMessage } from './redis-support.js';
import { servicesOf } from '../support/services-handle.js';

const reachable = await redisReachable();
if (!reachable) console.warn(redisSkipMessage);

describe.skipIf(!reachable)('the app with REDIS_URL (scale-out mode, one process)', () => {
  let t: TestApp;
  const prefix = randomPrefix();
  beforeAll(async () => {
    t = await createTestApp({ env: { REDIS_URL, REDIS_PREFIX: prefix } });
  });
  afterAll(async () => {
    await t.close();
    await dropPrefix(prefix);
  });

  it('selects the Redis versions by the environment alone', () => {
    const { shared } = servicesOf(t.app);
    expect(shared.rateLimiter).toBeInstanceOf(RedisRateLimiter);
    expect(shared.broadcast).toBeInstanceOf(RedisBroadcast);
    expect(shared.jobs).toBeInstanceOf(BullJobs);
    expect(shared.tusLocker).toBeInstanceOf(RedisLocker);
  });

  it('throttles sign-in in Redis, counting before the password is compared', async () => {
    const user = await createUser(servicesOf(t.app).db.kysely);
    const client = new TestClient(t.app);
    const attempts = await Promise.all(Array.from({ length: 12 }, () => client.post('/auth/login', { email: user.email, password: 'wrong' })));
    expect(attempts.filter((r) => r.statusCode === 422)).toHaveLength(5);
    expect(attempts.filter((r) => r.statusCode === 429)).toHaveLength(7);
    expect((await client.post('/auth/login', { email: user.email, password: user.password })).statusCode).toBe(429);
    const redis = connectRedis(REDIS_URL);
    try {
      expect(await redis.keys(`${prefix}rate:login:account:*`)).not.toHaveLength(0);
    } finally {
      redis.disconnect();
    }
  });

  it('makes thumbnails through the BullMQ queue', async () => {
    const { user } = await signedInUser(t.app);
    const image = await uploadFile(t.app, user, { name: 'photo.png', content: await pngBytes(800, 600) });
    await servicesOf(t.app).jobs.idle();
    const row = await servicesOf(t.app)
      .db.kysely.selectFrom('file_entries')
      .select(['thumbnail', 'disk_prefix'])
      .where('id', '=', image.id)
      .executeTakeFirstOrThrow();
    expect(row.thumbnail).toBe(1);
    expect(await servicesOf(t.app).drive.disk.stat(`${row.disk_prefix}/thumbnail.webp`)).not.toBeNull();
  });

  it('sends notification mail through the BullMQ queue and tells live streams over Redis', async () => {
    const { user } = await signedInUser(t.app);
    const heard: number[] = [];
    const stop = await servicesOf(t.app).notifications.bus.subscribe(user.id, (event) => heard.push(event.unreadCount));
    await servicesOf(t.app).notifications.notifier.notify(user.id, 'file-entry-shared', () => ({
      image: 'people',
      lines: [{ content: 'Ada shared Plans with you' }],
      mainAction: { label: 'Open', action: '/drive/shares' },
    }));
    await servicesOf(t.app).jobs.idle();
    const mails = await mailsTo(t.dataDir, user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('Ada shared Plans with you');
    for (let waited = 0; !heard.length && waited < 5000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(heard).toEqual([1]);
    stop();
  });
});
