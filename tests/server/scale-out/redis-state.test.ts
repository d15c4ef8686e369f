import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RedisBroadcast } from '../../../server/lib/broadcast.js';
import { BullJobs } from '../../../server/lib/bullmq-jobs.js';
import { reserveAttempt } from '../../../server/lib/rate-limiter.js';
import { connectBlockingRedis, connectRedis, type Redis } from '../../../server/lib/redis.js';
import { RedisRateLimiter } from '../../../server/lib/redis-rate-limiter.js';
import { BroadcastBus, type UnreadEvent } from '../../../server/modules/notifications/bus.js';
import { RedisLocker } from '../../../server/modules/uploads/redis-locker.js';
import { dropPrefix, randomPrefix, REDIS_URL, redisReachable, redisSkipMessage } from './redis-support.js';

const reachable = await redisReachable();
if (!reachable) console.warn(redisSkipMessage);
const quiet = { warn: () => undefined };

/** Waits for `check` to hold (messages cross Redis asynchronously). */
async function eventually(check: () => boolean, timeoutMs = 5000): Promise<void> {
  for (const started = Date.now(); !check();) {
    if (Date.now() - started > timeoutMs) throw new Error('condition never held');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe.skipIf(!reachable)('scale-out state in Redis', () => {
  let prefix: string;
  const connections: Redis[] = [];
  const connect = (blocking = false) => {
    const redis = blocking ? connectBlockingRedis(REDIS_URL) : connectRedis(REDIS_URL);
    connections.push(redis);
    return redis;
  };
  /** Two processes' worth of connections on the same prefix. */
  const broadcasts = () => [new RedisBroadcast(connect(), connect(true), prefix, quiet), new RedisBroadcast(connect(), connect(true), prefix, quiet)] as const;

  beforeAll(() => {
    prefix = randomPrefix();
  });
  afterEach(async () => {
    for (const redis of connections.splice(0)) redis.disconnect();
  });
  afterAll(() => dropPrefix(prefix));

  describe('rate limiter', () => {
    it('lets exactly `max` of 50 concurrent attempts through, from limiters on separate connections', async () => {
      const limiters = [new RedisRateLimiter(connect(), prefix), new RedisRateLimiter(connect(), prefix)];
      const limit = { key: `login:${randomPrefix()}`, max: 5, windowMs: 60_000 };
      const results = await Promise.allSettled(Array.from({ length: 50 }, (_, i) => reserveAttempt(limiters[i % 2]!, [limit])));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
      const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(refused).toHaveLength(45);
      expect(refused[0]!.reason).toMatchObject({ statusCode: 429 });
      expect((await limiters[0]!.peek(limit.key)).count).toBe(50);
    });

    it('keeps the window of the first hit, gives attempts back, never below zero, and clears', async () => {
      const limiter = new RedisRateLimiter(connect(), prefix);
      const key = `k:${randomPrefix()}`;
      expect(await limiter.peek(key)).toEqual({ count: 0, retryAfterSeconds: 0 });
      expect(await limiter.hit(key, 10_000)).toEqual({ count: 1, retryAfterSeconds: 10 });
      // A later hit with another window does not move the reset.
      expect((await limiter.hit(key, 500_000)).retryAfterSeconds).toBeLessThanOrEqual(10);
      await limiter.release(key);
      await limiter.release(key);
      await limiter.release(key);
      expect((await limiter.peek(key)).count).toBe(0);
      await limiter.hit(key, 10_000);
      await limiter.clear(key);
      expect(await limiter.peek(key)).toEqual({ count: 0, retryAfterSeconds: 0 });
    });

    it('starts afresh once the window has passed', async () => {
      const limiter = new RedisRateLimiter(connect(), prefix);
      const key = `w:${randomPrefix()}`;
      await limiter.hit(key, 100);
      await limiter.hit(key, 100);
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect((await limiter.hit(key, 100)).count).toBe(1);
    });
  });

  describe('broadcast and the notification bus', () => {
    it('delivers a user’s unread count from one bus to the streams of another, and to no other user', async () => {
      const [a, b] = broadcasts();
      const busA = new BroadcastBus(a, quiet);
      const busB = new BroadcastBus(b, quiet);
      const heardB: UnreadEvent[] = [];
      const heardA: UnreadEvent[] = [];
      const otherUser: UnreadEvent[] = [];
      const stopB = await busB.subscribe(7, (event) => heardB.push(event));
      await busA.subscribe(7, (event) => heardA.push(event));
      await busB.subscribe(8, (event) => otherUser.push(event));
      await busA.publish(7, { unreadCount: 3 });
      await eventually(() => heardB.length === 1 && heardA.length === 1);
      expect(heardB).toEqual([{ unreadCount: 3 }]);
      stopB();
      await busA.publish(7, { unreadCount: 4 });
      await eventually(() => heardA.length === 2);
      // The stopped listener heard nothing more (the message reached A, so it would have reached B by now).
      expect(heardB).toHaveLength(1);
      expect(otherUser).toEqual([]);
      await a.close();
      await b.close();
    });

    it('keeps a topic subscribed while any listener of it remains', async () => {
      const [a, b] = broadcasts();
      const first: unknown[] = [];
      const second: unknown[] = [];
      const stopFirst = await b.subscribe('cache', (m) => first.push(m));
      await b.subscribe('cache', (m) => second.push(m));
      stopFirst();
      await a.publish('cache', { drop: 'sessions:1' });
      await eventually(() => second.length === 1);
      expect(second).toEqual([{ drop: 'sessions:1' }]);
      expect(first).toEqual([]);
    });
  });

  describe('tus locker', () => {
    const lockers = (options = {}) => {
      const [a, b] = broadcasts();
      return [new RedisLocker(connect(), a, prefix, options), new RedisLocker(connect(), b, prefix, options)] as const;
    };

    it('lets one process at a time hold an upload, asking the holder in the other process to let go', async () => {
      const [one, two] = lockers();
      const id = `upload-${randomPrefix()}`;
      const first = one.newLock(id);
      let released = 0;
      await first.lock(new AbortController().signal, async () => {
        released += 1;
        // As tus does on a release request: the holder's request ends and it unlocks.
        await first.unlock();
      });
      const second = two.newLock(id);
      const started = Date.now();
      await second.lock(new AbortController().signal, () => undefined);
      expect(released).toBe(1);
      expect(Date.now() - started).toBeLessThan(5000);
      expect(two.held.has(id)).toBe(true);
      expect(one.held.has(id)).toBe(false);
      await second.unlock();
      await one.close();
      await two.close();
    });

    it('times out when the holder never lets go, and a lock only its holder can remove', async () => {
      const [one, two] = lockers({ acquireTimeoutMs: 300 });
      const id = `upload-${randomPrefix()}`;
      const held = one.newLock(id);
      await held.lock(new AbortController().signal, () => undefined);
      await expect(two.newLock(id).lock(new AbortController().signal, () => undefined)).rejects.toMatchObject({ status_code: 500 });
      // A stale unlock by anyone else leaves it held.
      const stranger = two.newLock(id);
      await expect(stranger.unlock()).rejects.toThrow(/unlocked/);
      expect(await one.redis.get(one.key(id))).not.toBeNull();
      await held.unlock();
      expect(await one.redis.get(one.key(id))).toBeNull();
      await one.close();
      await two.close();
    });

    it('frees the lock of a holder that died once its time is up', async () => {
      const [one, two] = lockers({ ttlMs: 200, acquireTimeoutMs: 3000 });
      const id = `upload-${randomPrefix()}`;
      await one.newLock(id).lock(new AbortController().signal, () => undefined);
      // The holder's process is gone: no renewals, no answers to release requests.
      await one.close();
      one.held.clear();
      const started = Date.now();
      await two.newLock(id).lock(new AbortController().signal, () => undefined);
      expect(Date.now() - started).toBeLessThan(2000);
      await two.close();
    });

    it('gives up waiting when the request is aborted', async () => {
      const [one, two] = lockers();
      const id = `upload-${randomPrefix()}`;
      await one.newLock(id).lock(new AbortController().signal, () => undefined);
      const stop = new AbortController();
      setTimeout(() => stop.abort(), 100);
      const started = Date.now();
      await expect(two.newLock(id).lock(stop.signal, () => undefined)).rejects.toMatchObject({ status_code: 500 });
      expect(Date.now() - started).toBeLessThan(2000);
      await one.close();
      await two.close();
    });
  });

  describe('jobs on BullMQ', () => {
    type Jobs = { greet: { name: string }; flaky: { id: string }; tick: Record<string, never> };

    it('runs a job queued by one process in whichever process works the queue, with its JSON data', async () => {
      const producer = new BullJobs<Jobs>(connect(true), prefix, quiet);
      const consumer = new BullJobs<Jobs>(connect(true), prefix, quiet);
      const ran: string[] = [];
      producer.define('greet', async () => {
        throw new Error('the producer does not work the queue in this test');
      });
      consumer.define('greet', async ({ name }) => {
        ran.push(name);
      });
      consumer.start();
      await producer.enqueue('greet', { name: 'Ada' });
      await producer.idle();
      expect(ran).toEqual(['Ada']);
      await producer.close();
      await consumer.close();
    });

    it('retries a failing job with a growing delay, then gives up and logs it', async () => {
      const warnings: object[] = [];
      const jobs = new BullJobs<Jobs>(connect(true), prefix, { warn: (obj) => warnings.push(obj) }, { backoffMs: 20 });
      let tries = 0;
      jobs.define(
        'flaky',
        async () => {
          tries += 1;
          throw new Error('push service down');
        },
        { attempts: 3 },
      );
      jobs.start();
      await jobs.enqueue('flaky', { id: 'x' });
      await jobs.idle();
      expect(tries).toBe(3);
      await eventually(() => warnings.length === 1);
      expect(warnings[0]).toMatchObject({ job: 'flaky', attempts: 3, err: 'push service down' });
      await jobs.close();
    });

    it('runs a timed job once per interval however many processes schedule it', async () => {
      const processes = [0, 1, 2].map(() => new BullJobs<Jobs>(connect(true), prefix, quiet));
      let ticks = 0;
      for (const jobs of processes) {
        jobs.define('tick', async () => {
          ticks += 1;
        });
        jobs.start();
      }
      for (const jobs of processes) await jobs.every('tick', {}, 60_000);
      await eventually(() => ticks >= 1);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(ticks).toBe(1);
      for (const jobs of processes) await jobs.close();
    });
  });
});
