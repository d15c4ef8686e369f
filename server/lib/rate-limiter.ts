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
  hit(key: string, windowMs: number): Promise<Attempts>;
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
}

/** Its English line has the singular form too ("in 1 second"). */
export const TOO_MANY_ATTEMPTS = 'Too many attempts. Please try again in :count seconds.';
export const tooManyAttempts = (seconds: number) => TooManyRequests(TOO_MANY_ATTEMPTS, { count: Math.max(1, seconds) });

/** Refuses when any of the limits is already used up. */
export async function assertUnderLimits(limiter: RateLimiter, limits: Limit[]): Promise<void> {
  for (const limit of limits) {
    const { count, retryAfterSeconds } = await limiter.peek(limit.key);
    if (count >= limit.max) throw tooManyAttempts(retryAfterSeconds);
  }
}

export async function hitLimits(limiter: RateLimiter, limits: Limit[]): Promise<void> {
  for (const limit of limits) await limiter.hit(limit.key, limit.windowMs);
}
