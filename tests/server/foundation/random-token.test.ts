import { describe, expect, it } from 'vitest';
import { randomToken } from '../../../server/lib/tokens.js';

/** Tokens come from a pool of CSPRNG bytes: each byte is handed out once, across refills of the pool. */
describe('randomToken', () => {
  it('gives distinct URL-safe tokens of the asked size, across many refills of its pool', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 5000; i += 1) {
      const token = randomToken(32);
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      seen.add(token);
    }
    expect(seen.size).toBe(5000);
  });

  it('mixes sizes without handing out a byte twice', () => {
    const tokens = Array.from({ length: 600 }, (_, i) => randomToken(1 + (i % 40)));
    // Two equal 1-byte tokens may happen by chance; long ones may not.
    const long = tokens.filter((t) => t.length > 20);
    expect(new Set(long).size).toBe(long.length);
    expect(Buffer.from(randomToken(3000), 'base64url')).toHaveLength(3000);
  });
});
