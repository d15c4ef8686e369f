import type { UserRow } from '../../db/types.js';
import { ValidationError } from '../../lib/errors.js';
import type { UsersRepository } from '../users/repository.js';
import { randomToken } from '../../lib/tokens.js';
import type { PasswordChecks } from './password-checks.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { loginLimits } from './throttles.js';

const BAD_CREDENTIALS = 'These credentials do not match our records.';
export const ACCOUNT_SUSPENDED = 'This account is suspended.';

/** Timing equaliser: checking a password for an unknown email costs the same as for a known one. */
let dummyHash: Promise<string> | undefined;
const getDummyHash = () => (dummyHash ??= hashPassword(randomToken()));

export class AuthService {
  constructor(
    private readonly users: UsersRepository,
    private readonly passwords: PasswordChecks,
  ) {}

  /** Sign-in: throttled per account and client before the password is compared (see throttles.ts). */
  login(credentials: { email: string; password: string }, ip: string): Promise<UserRow> {
    return this.passwords.check(loginLimits(credentials.email, ip), () => this.checkCredentials(credentials.email, credentials.password));
  }

  async checkCredentials(email: string, password: string): Promise<UserRow> {
    const user = await this.users.findByEmail(email);
    const ok = await verifyPassword(user?.password ?? (await getDummyHash()), password);
    if (!user || !ok) throw ValidationError.field('email', BAD_CREDENTIALS);
    if (user.suspended_at) throw ValidationError.field('email', ACCOUNT_SUSPENDED);
    return user;
  }
}
