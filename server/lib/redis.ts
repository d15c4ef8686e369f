import { Redis, type RedisOptions } from 'ioredis';

export type { Redis } from 'ioredis';

/**
 * A connection for commands: a request waiting on Redis fails after a few
 * retries rather than hanging while Redis is away. (BullMQ and subscribers
 * need their own connections; see `blocking`.)
 */
export function connectRedis(url: string, options: RedisOptions = {}): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: 3, enableOfflineQueue: true, lazyConnect: false, ...options });
  // Without a listener ioredis prints every reconnect attempt as an unhandled error; it reconnects by itself.
  redis.on('error', () => undefined);
  return redis;
}

/** For subscribers and BullMQ workers: commands wait for a reconnect instead of failing (BullMQ requires this). */
export function connectBlockingRedis(url: string): Redis {
  return connectRedis(url, { maxRetriesPerRequest: null });
}
