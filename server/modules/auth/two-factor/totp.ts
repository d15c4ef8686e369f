import { Secret, TOTP } from 'otpauth';

/** RFC 6238 defaults every authenticator app understands: SHA-1, six digits, 30-second steps. */
const PERIOD = 30;
const DIGITS = 6;

const totpFor = (secret: string, label = '', issuer = '') =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: DIGITS, period: PERIOD, label, issuer });

/** A new 160-bit secret (RFC 4226 recommends 160 bits for HMAC-SHA-1), in base32 as apps expect it typed. */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

/** The otpauth:// URL a QR code carries: the site as issuer, the account's address as label. */
export const otpauthUrl = (secret: string, issuer: string, account: string): string => totpFor(secret, account, issuer).toString();

/** The code for a moment (tests, and nothing else in the server: the server only checks). */
export const totpCode = (secret: string, timestamp: number): string => totpFor(secret).generate({ timestamp });

/**
 * The time step a code belongs to, or null: a phone's clock a step ahead or
 * behind still signs in (window 1), two steps is a stale code.
 */
export function matchingStep(secret: string, code: string, timestamp: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpFor(secret).validate({ token: code, timestamp, window: 1 });
  return delta === null ? null : Math.floor(timestamp / 1000 / PERIOD) + delta;
}
