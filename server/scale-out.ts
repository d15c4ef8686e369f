import type { Locker } from '@tus/server';
import type { Config } from './config.js';
import type { DriveJobQueue, DriveJobs } from './jobs/catalog.js';
import type { AccessChanges } from './db/changes.js';
import { relayChanges } from './db/changes-relay.js';
import { InProcessBroadcast, RedisBroadcast, type Broadcast } from './lib/broadcast.js';
import { InProcessJobs, type BackgroundLog } from './lib/background.js';
import { BullJobs } from './lib/bullmq-jobs.js';
import { MemoryRateLimiter, type RateLimiter } from './lib/rate-limiter.js';
import { connectBlockingRedis, connectRedis, type Redis } from './lib/redis.js';
import { traceRedisCommands } from './observability/traced-redis.js';
import { RedisRateLimiter } from './lib/redis-rate-limiter.js';
import { RedisLocker } from './modules/uploads/redis-locker.js';

/**
 * What processes of one site must share, chosen by the environment alone:
 * in memory for the embedded single process, in Redis when REDIS_URL is set
 * (rate limits, tus upload locks, the broadcast behind live events and cache
 * invalidation, and the job queue). Nothing else a request needs lives in one
 * process's memory (see README, Running at scale).
 */
export interface SharedState {
  rateLimiter: RateLimiter;
  /** Cross-process messages by topic (lib/broadcast.ts): the bell's live count, caches' invalidation. */
  broadcast: Broadcast;
  jobs: DriveJobQueue;
  /** Undefined: @tus/server's in-memory locker. */
  tusLocker: Locker | undefined;
  /** The command connection in scale-out mode (for other shared stores, e.g. a tus KV cache), else null. */
  redis: Redis | null;
  close(): Promise<void>;
}

/**
 * `changes`: the database's change events; in scale-out mode they are relayed
 * to the other processes, whose caches (access, bootstrap data, listing
 * versions) must retire what a write here made stale.
 */
export function createSharedState(config: Pick<Config, 'redis'>, log: BackgroundLog, changes?: AccessChanges): SharedState {
  if (!config.redis) {
    const broadcast = new InProcessBroadcast();
    const jobs = new InProcessJobs<DriveJobs>(log);
    return {
      rateLimiter: new MemoryRateLimiter(),
      broadcast,
      jobs,
      tusLocker: undefined,
      redis: null,
      async close() {
        await jobs.close();
        await broadcast.close();
      },
    };
  }
  const { url, prefix } = config.redis;
  // Commands of requests and jobs are spans of their traces while tracing is on.
  const redis = traceRedisCommands(connectRedis(url));
  const broadcast = new RedisBroadcast(redis, connectBlockingRedis(url), prefix, log);
  const jobs = new BullJobs<DriveJobs>(connectBlockingRedis(url), prefix, log);
  const tusLocker = new RedisLocker(redis, broadcast, prefix);
  const stopRelay = changes ? relayChanges(changes, broadcast, log) : () => {};
  return {
    rateLimiter: new RedisRateLimiter(redis, prefix),
    broadcast,
    jobs,
    tusLocker,
    redis,
    async close() {
      stopRelay();
      await jobs.close();
      await tusLocker.close();
      await broadcast.close();
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
