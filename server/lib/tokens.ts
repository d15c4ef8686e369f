import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Bytes from the CSPRNG are drawn a block at a time rather than one call per
 * token (a small file takes four tokens: its object folder and name, its
 * hash, its temporary file), as Node's randomUUID does; each byte is handed
 * out once.
 */
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let taken = 0;

function random(bytes: number): Buffer {
  if (bytes > POOL_BYTES / 4) return randomBytes(bytes);
  if (taken + bytes > pool.length) {
    pool = randomBytes(POOL_BYTES);
    taken = 0;
  }
  taken += bytes;
  return pool.subarray(taken - bytes, taken);
}

/** A URL-safe random token from the CSPRNG. */
export const randomToken = (bytes = 32): string => random(bytes).toString('base64url');

/** Tokens are stored hashed so that a leaked database cannot be replayed. */
export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

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
