import { createHmac, hash, randomFillSync, timingSafeEqual } from 'node:crypto';

/**
 * Bytes from the CSPRNG drawn 4 KiB at a time and handed out once each, as
 * Node's own randomUUID does: one call into OpenSSL per token cost ~30 µs on
 * this machine kind, a tenth of a whole guest request (each one gets an XSRF
 * token), where a slice of the pool costs nothing.
 */
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let used = 0;

/** A URL-safe random token from the CSPRNG. */
export function randomToken(bytes = 32): string {
  if (bytes > POOL_BYTES / 4) return randomFillSync(Buffer.allocUnsafe(bytes)).toString('base64url');
  if (used + bytes > pool.length) {
    pool = randomFillSync(Buffer.allocUnsafe(POOL_BYTES));
    used = 0;
  }
  const token = pool.toString('base64url', used, used + bytes);
  // Overwritten, so a later dump of the pool does not hold tokens already given out.
  pool.fill(0, used, used + bytes);
  used += bytes;
  return token;
}

/** Tokens are stored hashed so that a leaked database cannot be replayed. */
// crypto.hash makes no Hash object: ~40% less than createHash for a token, and each request hashes its session's twice.
export const sha256 = (value: string): string => hash('sha256', value, 'hex');

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** `value.expiresAt.signature`: a small tamper-proof token for short-lived cookies. */
export function signValue(key: string, value: string, ttlMs: number): string {
  const payload = `${Buffer.from(value).toString('base64url')}.${Date.now() + ttlMs}`;
  return `${payload}.${createHmac('sha256', key).update(payload).digest('base64url')}`;
}

export function verifySignedValue(key: string, signed: string | undefined): string | null {
  if (!signed) return null;
  const parts = signed.split('.');
  if (parts.length !== 3) return null;
  const [value, expires, signature] = parts as [string, string, string];
  const expected = createHmac('sha256', key).update(`${value}.${expires}`).digest('base64url');
  if (!safeEqual(signature, expected) || Number(expires) < Date.now()) return null;
  return Buffer.from(value, 'base64url').toString();
}
