import type { Limit } from '../../lib/rate-limiter.js';

const MINUTE = 60_000;

/** A few failures per account from one client, and a wider cap per client across accounts. */
export const loginLimits = (email: string, ip: string): Limit[] => [
  { key: `login:account:${email.trim().toLowerCase()}|${ip}`, max: 5, windowMs: MINUTE },
  { key: `login:ip:${ip}`, max: 30, windowMs: MINUTE },
];

/** Mails cost the recipient attention: a handful per address and per client. */
export const mailLimits = (kind: 'reset' | 'verify', email: string, ip: string): Limit[] => [
  { key: `mail:${kind}:${email.trim().toLowerCase()}`, max: 3, windowMs: 15 * MINUTE },
  { key: `mail:${kind}:ip:${ip}`, max: 10, windowMs: 15 * MINUTE },
];
