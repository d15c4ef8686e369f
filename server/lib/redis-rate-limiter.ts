import type { Redis } from 'ioredis';
import type { Attempts, RateLimiter } from './rate-limiter.js';

// One round trip each, run atomically by Redis: parallel hits from any number of processes all count,
// and the window's expiry is set by the hit that opened it (never reset by later hits).
const HIT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return { count, ttl }`;

const RELEASE = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 0 then redis.call('DECR', KEYS[1]) end
return 0`;

/**
 * The rate limiter shared by every process (scale-out mode): the same fixed
 * windows as MemoryRateLimiter, one Redis key per limit key that expires with
 * its window.
 */
export class RedisRateLimiter implements RateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async peek(key: string): Promise<Attempts> {
    const [count, ttl] = await Promise.all([this.redis.get(this.key(key)), this.redis.pttl(this.key(key))]);
    if (count === null || ttl < 0) return { count: 0, retryAfterSeconds: 0 };
    return { count: Number(count), retryAfterSeconds: Math.ceil(ttl / 1000) };
  }

  async hit(key: string, windowMs: number): Promise<Attempts> {
    const [count, ttl] = (await this.redis.eval(HIT, 1, this.key(key), String(windowMs))) as [number, number];
    return { count, retryAfterSeconds: Math.ceil(ttl / 1000) };
  }

  async release(key: string): Promise<void> {
    await this.redis.eval(RELEASE, 1, this.key(key));
  }

  async clear(key: string): Promise<void> {
    await this.redis.del(this.key(key));
  }

  private key(key: string): string {
    return `${this.prefix}rate:${key}`;
  }
}
