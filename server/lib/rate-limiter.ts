import { TooManyRequests } from './errors.js';

export interface Attempts {
  count: number;
  retryAfterSeconds: number;
}

/**
 * Counts attempts per key in fixed windows. The embedded setup is one
 * process, so memory is the right store; a shared store (Redis) can implement
 * the same interface for several processes.
 */
export interface RateLimiter {
  peek(key: string): Promise<Attempts>;
  /** Counts one attempt now and answers the count including it (atomic: parallel hits all count). */
  hit(key: string, windowMs: number): Promise<Attempts>;
  /** Takes one attempt back (a success that should not use up a shared allowance). */
  release(key: string): Promise<void>;
  clear(key: string): Promise<void>;
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private lastSweep = Date.now();

  async peek(key: string): Promise<Attempts> {
    const window = this.live(key);
    return { count: window?.count ?? 0, retryAfterSeconds: window ? Math.ceil((window.resetAt - Date.now()) / 1000) : 0 };
  }

  async hit(key: string, windowMs: number): Promise<Attempts> {
    this.sweep();
    const window = this.live(key) ?? { count: 0, resetAt: Date.now() + windowMs };
    window.count += 1;
    this.windows.set(key, window);
    return { count: window.count, retryAfterSeconds: Math.ceil((window.resetAt - Date.now()) / 1000) };
  }

  async release(key: string): Promise<void> {
    const window = this.live(key);
    if (window && window.count > 0) window.count -= 1;
  }

  async clear(key: string): Promise<void> {
    this.windows.delete(key);
  }

  private live(key: string) {
    const window = this.windows.get(key);
    if (window && window.resetAt <= Date.now()) {
      this.windows.delete(key);
      return undefined;
    }
    return window;
  }

  /** Drops expired windows now and then so memory stays bounded. */
  private sweep() {
    const now = Date.now();
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}

export interface Limit {
  key: string;
  max: number;
  windowMs: number;
  /**
   * Past `max`, the attempt is not refused but held to this narrower
   * allowance instead (a slow-down rather than a lock: a shared limit that
   * anyone can use up must not shut out everyone else).
   */
  beyond?: Limit;
}

/** Its English line has the singular form too ("in 1 second"). */
export const TOO_MANY_ATTEMPTS = 'Too many attempts. Please try again in :count seconds.';
export const tooManyAttempts = (seconds: number) => {
  const wait = Math.max(1, seconds);
  const error = TooManyRequests(TOO_MANY_ATTEMPTS, { count: wait });
  error.headers['Retry-After'] = String(wait);
  return error;
};

/**
 * Counts an attempt against every limit *before* the work it guards runs, so
 * that parallel attempts cannot all pass a check-then-count (issue 10): of 30
 * parallel wrong passwords only `max` are ever checked. Refuses with 429 and
 * Retry-After once a limit is used up (the refused attempt still counts); a
 * limit with `beyond` refuses only once that allowance is used up too. Answers
 * the keys it counted against, in order.
 */
export async function reserveAttempt(limiter: RateLimiter, limits: Limit[]): Promise<string[]> {
  let refusal: number | null = null;
  const counted: string[] = [];
  for (const first of limits) {
    let limit: Limit | undefined = first;
    while (limit) {
      const { count, retryAfterSeconds } = await limiter.hit(limit.key, limit.windowMs);
      counted.push(limit.key);
      if (count <= limit.max) break;
      if (!limit.beyond) refusal = Math.max(refusal ?? 0, retryAfterSeconds);
      limit = limit.beyond;
    }
  }
  if (refusal !== null) throw tooManyAttempts(refusal);
  return counted;
}

/** Counts `times` attempts against the limit at once; past it, 429 with Retry-After (sending mail, notifying people). */
export async function consume(limiter: RateLimiter, limit: Limit, times = 1): Promise<void> {
  let attempts: Attempts | undefined;
  for (let i = 0; i < times; i += 1) attempts = await limiter.hit(limit.key, limit.windowMs);
  if (attempts && attempts.count > limit.max) throw tooManyAttempts(attempts.retryAfterSeconds);
}
