import { randomBytes } from 'node:crypto';
import { ERRORS, type Lock, type Locker, type RequestRelease } from '@tus/server';
import type { Redis } from 'ioredis';
import type { Broadcast, JsonValue } from '../../lib/broadcast.js';

const UNLOCK = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;
const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;
const RELEASE_TOPIC = 'tus-release';

export interface RedisLockerOptions {
  /** How long a request waits for an upload's lock before tus answers 500 (MemoryLocker's default). */
  acquireTimeoutMs?: number;
  /** A lock lives this long unless renewed; a crashed process's locks free themselves after it. */
  ttlMs?: number;
  /** Between attempts to take a held lock. */
  retryMs?: number;
}

interface Held {
  token: string;
  requestRelease: RequestRelease;
  renew: NodeJS.Timeout;
}

/**
 * tus upload locks shared by every process (scale-out mode): a PATCH that
 * resumes an upload on another process waits for, and asks for, the lock the
 * first one holds, as @tus/server's MemoryLocker does within one process.
 *
 * The lock is a Redis key holding a random token (SET NX PX), renewed while
 * held and deleted only by its holder. A process that wants a held lock
 * broadcasts a release request; the holder's process calls the holder's
 * `requestRelease` (tus then ends that request's body, saves the offset and
 * unlocks).
 */
export class RedisLocker implements Locker {
  readonly held = new Map<string, Held>();
  private listening: Promise<() => void> | null = null;
  readonly acquireTimeoutMs: number;
  readonly ttlMs: number;
  readonly retryMs: number;

  constructor(
    readonly redis: Redis,
    private readonly broadcast: Broadcast,
    private readonly prefix: string,
    options: RedisLockerOptions = {},
  ) {
    this.acquireTimeoutMs = options.acquireTimeoutMs ?? 30_000;
    this.ttlMs = options.ttlMs ?? 15_000;
    this.retryMs = options.retryMs ?? 50;
  }

  newLock(id: string): Lock {
    return new RedisLock(id, this);
  }

  key(id: string): string {
    return `${this.prefix}tus-lock:${id}`;
  }

  /** Release requests reach this process from the first lock on. */
  listen(): Promise<unknown> {
    this.listening ??= this.broadcast.subscribe(RELEASE_TOPIC, (message: JsonValue) => {
      if (typeof message !== 'string') return;
      const held = this.held.get(message);
      if (held) void Promise.resolve(held.requestRelease()).catch(() => undefined);
    });
    return this.listening;
  }

  requestRelease(id: string): Promise<void> {
    return this.broadcast.publish(RELEASE_TOPIC, id);
  }

  async close(): Promise<void> {
    for (const held of this.held.values()) clearInterval(held.renew);
    (await this.listening)?.();
  }
}

class RedisLock implements Lock {
  private token: string | null = null;

  constructor(
    private readonly id: string,
    private readonly locker: RedisLocker,
  ) {}

  async lock(stopSignal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    const { locker, id } = this;
    await locker.listen();
    const token = randomBytes(16).toString('hex');
    const deadline = Date.now() + locker.acquireTimeoutMs;
    let asked = 0;
    for (;;) {
      if ((await locker.redis.set(locker.key(id), token, 'PX', locker.ttlMs, 'NX')) === 'OK') break;
      if (stopSignal.aborted || Date.now() >= deadline) throw ERRORS.ERR_LOCK_TIMEOUT;
      // Ask again now and then: the holder may have taken the lock after our first request went out.
      if (Date.now() - asked > 1000) {
        asked = Date.now();
        await locker.requestRelease(id);
      }
      await new Promise((resolve) => setTimeout(resolve, locker.retryMs));
    }
    this.token = token;
    const renew = setInterval(() => {
      locker.redis.eval(RENEW, 1, locker.key(id), token, String(locker.ttlMs)).catch(() => undefined);
    }, locker.ttlMs / 3);
    renew.unref();
    locker.held.set(id, { token, requestRelease, renew });
  }

  async unlock(): Promise<void> {
    const { locker, id } = this;
    const token = this.token;
    if (!token) throw new Error('Releasing an unlocked lock!');
    this.token = null;
    const held = locker.held.get(id);
    if (held?.token === token) {
      clearInterval(held.renew);
      locker.held.delete(id);
    }
    await locker.redis.eval(UNLOCK, 1, locker.key(id), token);
  }
}
