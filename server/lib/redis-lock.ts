import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

const UNLOCK = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/**
 * Runs `work` while holding a lock every process on every machine sees
 * (SET NX PX, deleted only by its holder). The lock expires after `ttlMs`
 * should its holder die, so a crash never blocks the others for good.
 */
export async function withRedisLock<T>(redis: Redis, key: string, work: () => Promise<T>, options: { ttlMs?: number; pollMs?: number } = {}): Promise<T> {
  const token = randomBytes(16).toString('hex');
  const ttlMs = options.ttlMs ?? 5 * 60_000;
  while ((await redis.set(key, token, 'PX', ttlMs, 'NX')) !== 'OK') await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 250));
  try {
    return await work();
  } finally {
    await redis.eval(UNLOCK, 1, key, token);
  }
}
