import { reserveAttempt, type Limit, type RateLimiter } from '../../lib/rate-limiter.js';

/**
 * Every check of a password goes through here (sign-in, the current password
 * of a password change, a social account's connect prompt; share-link
 * passwords later): each attempt is counted before the password is compared,
 * and a success gives the attempt back. A refusal is 429 with Retry-After.
 */
export class PasswordChecks {
  constructor(private readonly limiter: RateLimiter) {}

  async check<T>(limits: Limit[], compare: () => Promise<T>): Promise<T> {
    const [narrowest, ...wider] = await reserveAttempt(this.limiter, limits);
    const result = await compare();
    // A right password is no guess: the first (narrowest) limit starts afresh, the others it counted
    // against get their slot back, so owners are never counted against themselves.
    if (narrowest) await this.limiter.clear(narrowest);
    for (const key of wider) await this.limiter.release(key);
    return result;
  }
}
