import type { Limit } from '../../lib/rate-limiter.js';

const MINUTE = 60_000;

/**
 * Sign-in guesses: a few per account from one client, a wider cap per client
 * across accounts, and a cap per account across all clients that slows a
 * distributed guess to a few thousand a day, far above what an owner types.
 * It is a cap rather than a lock on the account: every window ends by itself.
 */
export const loginLimits = (email: string, ip: string): Limit[] => {
  const account = email.trim().toLowerCase();
  return [
    { key: `login:account:${account}|${ip}`, max: 5, windowMs: MINUTE },
    { key: `login:ip:${ip}`, max: 30, windowMs: MINUTE },
    { key: `login:account:${account}`, max: 100, windowMs: 60 * MINUTE },
  ];
};

/** The current password asked again while signed in (password change, sensitive account changes). */
export const currentPasswordLimits = (userId: number, ip: string): Limit[] => [
  { key: `password:user:${userId}|${ip}`, max: 5, windowMs: 15 * MINUTE },
  { key: `password:user:${userId}`, max: 20, windowMs: 60 * MINUTE },
];

/** Mails cost the recipient attention: a handful per address and per client. */
export const mailLimits = (kind: 'reset' | 'verify', email: string, ip: string): Limit[] => [
  { key: `mail:${kind}:${email.trim().toLowerCase()}`, max: 3, windowMs: 15 * MINUTE },
  { key: `mail:${kind}:ip:${ip}`, max: 10, windowMs: 15 * MINUTE },
];

/**
 * Second-step codes: six digits are a million guesses, so fewer tries than a
 * password gets, per client and per account (a stolen password tried from
 * many clients still meets the account's cap).
 */
export const twoFactorLimits = (userId: number, ip: string): Limit[] => [
  { key: `2fa:user:${userId}|${ip}`, max: 5, windowMs: 5 * MINUTE },
  { key: `2fa:user:${userId}`, max: 20, windowMs: 60 * MINUTE },
];
