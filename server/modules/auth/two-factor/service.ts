import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../../../db/types.js';
import { Conflict, NotFound, ValidationError } from '../../../lib/errors.js';
import { randomToken, sha256 } from '../../../lib/tokens.js';
import { addMs, nowIso } from '../../../lib/time.js';
import type { PasswordChecks } from '../password-checks.js';
import { twoFactorLimits } from '../throttles.js';
import {
  challengeById,
  claimStep,
  deleteDevicesOf,
  deleteExpiredChallenges,
  deleteRecoveryCodes,
  deleteTotp,
  deviceIsTrusted,
  insertChallenge,
  insertDevice,
  replaceRecoveryCodes,
  saveUnconfirmedTotp,
  spendRecoveryCode,
  takeChallenge,
  totpOf,
  unusedRecoveryCodes,
  usersWithSecondFactor,
} from './repository.js';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { PasskeysService } from './passkeys.js';
import { matchingStep, newTotpSecret, otpauthUrl } from './totp.js';

const DAY = 24 * 60 * 60 * 1000;
/** Long enough to find the phone; short enough that a password alone is soon worth nothing again. */
export const CHALLENGE_LIFETIME_MS = 5 * 60 * 1000;
export const DEVICE_LIFETIME_MS = 30 * DAY;
export const RECOVERY_CODE_COUNT = 10;

export const INVALID_CODE = 'The code is invalid.';
export const REUSED_CODE = 'This code has already been used. Wait for the next one.';
export const INVALID_RECOVERY_CODE = 'This recovery code is invalid or has already been used.';
export const SIGN_IN_EXPIRED = 'Your sign-in has expired. Please sign in again.';
export const NO_TOTP_SETUP = 'Start setting up the authenticator app first.';
export const TOTP_ALREADY_ON = 'The authenticator app is already set up.';
export const TWO_FACTOR_OFF = 'Two-factor sign-in is not turned on.';

/** What a second step was answered with. */
export type SecondFactorAnswer =
  | { method: 'totp'; code: string }
  | { method: 'recovery_code'; code: string }
  /** An assertion for the ceremony `token` started (POST /auth/passkey/options). */
  | { method: 'passkey'; token: string; response: AuthenticationResponseJSON };

export type SecondStepMethod = 'totp' | 'recovery_code' | 'passkey';

/** Recovery codes as shown: ten characters of base32 in two groups (50 bits, far beyond what the throttle lets anyone guess). */
const RECOVERY_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
function newRecoveryCode(): string {
  const bytes = randomBytes(10);
  const chars = [...bytes].map((b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}
/** Typed as shown, in lower case or without the dash: all the same code. */
const normaliseRecoveryCode = (code: string) => code.toUpperCase().replace(/[^A-Z0-9]/g, '');

export interface TwoFactorStatus {
  totp: boolean;
  recovery_codes_left: number;
}

/**
 * Second factors and the state between a sign-in's two steps. The sign-in
 * rules themselves (who is asked, when a session starts) are AuthService's.
 */
export class TwoFactorService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly checks: PasswordChecks,
    private readonly issuer: () => Promise<string>,
    private readonly passkeys: Pick<PasskeysService, 'has' | 'verifyAssertion' | 'removeAll'>,
    /** Milliseconds since the epoch; tests move it to reach other time steps. */
    private readonly clock: () => number = Date.now,
  ) {}

  /** Whether a sign-in of this user needs a second step. */
  async enabled(userId: number): Promise<boolean> {
    return (await this.methods(userId)).length > 0;
  }

  /** The second steps this user can answer (recovery codes only beside an app: they are its backup). */
  async methods(userId: number): Promise<SecondStepMethod[]> {
    const totp = !!(await totpOf(this.db, userId))?.confirmed_at;
    const passkey = await this.passkeys.has(userId);
    return [...(totp ? (['totp', 'recovery_code'] as const) : []), ...(passkey ? (['passkey'] as const) : [])];
  }

  /** Of these users, those who have a second factor (the admin's users list). */
  withSecondFactor(userIds: number[]): Promise<Set<number>> {
    return usersWithSecondFactor(this.db, userIds);
  }

  async status(userId: number): Promise<TwoFactorStatus> {
    const totp = !!(await totpOf(this.db, userId))?.confirmed_at;
    return { totp, recovery_codes_left: totp ? await unusedRecoveryCodes(this.db, userId) : 0 };
  }

  /** A new secret waiting for its first code; a confirmed app must be turned off before another is set up. */
  async startTotpSetup(user: UserRow): Promise<{ secret: string; otpauth_url: string }> {
    const secret = newTotpSecret();
    if (!(await saveUnconfirmedTotp(this.db, user.id, secret, nowIso()))) throw Conflict(TOTP_ALREADY_ON);
    return { secret, otpauth_url: otpauthUrl(secret, await this.issuer(), user.email) };
  }

  /** The first code proves the app holds the secret: two-factor is on from here, with a fresh set of recovery codes. */
  async confirmTotp(user: UserRow, code: string, ip: string): Promise<{ recovery_codes: string[] }> {
    const totp = await totpOf(this.db, user.id);
    if (!totp) throw NotFound(NO_TOTP_SETUP);
    if (totp.confirmed_at) throw Conflict(TOTP_ALREADY_ON);
    await this.checks.check(twoFactorLimits(user.id, ip), async () => {
      const step = matchingStep(totp.secret, code.trim(), this.clock());
      if (step === null) throw ValidationError.field('code', INVALID_CODE);
      if (!(await claimStep(this.db, user.id, step, nowIso()))) throw ValidationError.field('code', INVALID_CODE);
    });
    return { recovery_codes: await this.newRecoveryCodes(user.id) };
  }

  /** A new set replaces the old one entirely (the old sheet may be what was lost); needs a current code. */
  async regenerateRecoveryCodes(user: UserRow, answer: SecondFactorAnswer, ip: string): Promise<{ recovery_codes: string[] }> {
    if (!(await totpOf(this.db, user.id))?.confirmed_at) throw Conflict(TWO_FACTOR_OFF);
    await this.verify(user.id, answer, ip);
    return { recovery_codes: await this.newRecoveryCodes(user.id) };
  }

  /** Turns the authenticator app off after a code (the caller has checked the password); remembered devices are forgotten too. Passkeys stay. */
  async disable(user: UserRow, answer: SecondFactorAnswer, ip: string): Promise<void> {
    if (!(await totpOf(this.db, user.id))?.confirmed_at) throw Conflict(TWO_FACTOR_OFF);
    await this.verify(user.id, answer, ip);
    await deleteTotp(this.db, user.id);
    await deleteRecoveryCodes(this.db, user.id);
    await deleteDevicesOf(this.db, user.id);
  }

  /**
   * Everything second-factor of a user, passkeys included, without proof: for
   * the admin's reset of an account that lost them all (the admin gives their own).
   */
  async removeAll(userId: number): Promise<void> {
    await this.passkeys.removeAll(userId);
    await deleteTotp(this.db, userId);
    await deleteRecoveryCodes(this.db, userId);
    await deleteDevicesOf(this.db, userId);
  }

  /**
   * The one check of a second factor: counted before it is compared (parallel
   * guesses cannot outrun the throttle), a code only for a time step later
   * than the last one accepted, a recovery code spent once.
   */
  async verify(userId: number, answer: SecondFactorAnswer, ip: string): Promise<void> {
    await this.checks.check(twoFactorLimits(userId, ip), async () => {
      if (answer.method === 'passkey') {
        await this.passkeys.verifyAssertion(answer.token, answer.response, userId);
        return;
      }
      if (answer.method === 'recovery_code') {
        const code = normaliseRecoveryCode(answer.code);
        const spent = code.length > 0 && (await spendRecoveryCode(this.db, userId, sha256(code), nowIso()));
        if (!spent) throw ValidationError.field('recovery_code', INVALID_RECOVERY_CODE);
        return;
      }
      const totp = await totpOf(this.db, userId);
      const step = totp?.confirmed_at ? matchingStep(totp.secret, answer.code.trim(), this.clock()) : null;
      if (step === null) throw ValidationError.field('code', INVALID_CODE);
      if (!(await claimStep(this.db, userId, step))) throw ValidationError.field('code', REUSED_CODE);
    });
  }

  /** A sign-in waiting for its second step; the token goes in a cookie, its hash in the table. */
  async createChallenge(userId: number, remember: boolean): Promise<{ token: string; expiresAt: string }> {
    const token = randomToken();
    const now = nowIso();
    const expiresAt = addMs(now, CHALLENGE_LIFETIME_MS);
    await deleteExpiredChallenges(this.db, now);
    await insertChallenge(this.db, { id: sha256(token), user_id: userId, remember: remember ? 1 : 0, created_at: now, expires_at: expiresAt });
    return { token, expiresAt };
  }

  /** The sign-in a challenge cookie stands for, while it lasts. */
  async openChallenge(token: string): Promise<{ userId: number; remember: boolean } | null> {
    const row = await challengeById(this.db, sha256(token));
    if (!row || row.expires_at <= nowIso()) return null;
    return { userId: row.user_id, remember: row.remember === 1 };
  }

  /** Spends a challenge: true for the one caller that did. */
  takeChallenge(token: string): Promise<boolean> {
    return takeChallenge(this.db, sha256(token));
  }

  async rememberDevice(userId: number): Promise<{ token: string; expiresAt: string }> {
    const token = randomToken();
    const now = nowIso();
    const expiresAt = addMs(now, DEVICE_LIFETIME_MS);
    await insertDevice(this.db, { id: sha256(token), user_id: userId, created_at: now, expires_at: expiresAt });
    return { token, expiresAt };
  }

  async trustsDevice(userId: number, token: string | null | undefined): Promise<boolean> {
    return !!token && deviceIsTrusted(this.db, sha256(token), userId, nowIso());
  }

  private async newRecoveryCodes(userId: number): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await replaceRecoveryCodes(
      this.db,
      userId,
      codes.map((code) => sha256(normaliseRecoveryCode(code))),
      nowIso(),
    );
    return codes;
  }
}
