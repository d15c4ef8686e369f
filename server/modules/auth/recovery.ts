import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { ValidationError } from '../../lib/errors.js';
import { nowIso } from '../../lib/time.js';
import type { MailMessage } from '../../mail/mailer.js';
import { resetPasswordMessage, verifyEmailMessage, emailChangedMessage } from '../../mail/templates.js';
import type { SettingsService } from '../settings/service.js';
import type { SiteUrl } from '../settings/site-url.js';
import { markVerified, updateUser } from '../users/accounts.repository.js';
import type { UsersRepository } from '../users/repository.js';
import { hashPassword } from './passwords.js';
import type { SessionsService } from './sessions.js';
import { RESET_PASSWORD_TTL_MS, VERIFY_EMAIL_TTL_MS, type UserTokensService } from './user-tokens.js';

export const RESET_LINK_SENT = 'If an account exists for this email, we have sent a password reset link to it.';
export const PASSWORD_RESET_DONE = 'Your password has been reset!';
const RESET_LINK_INVALID = 'This password reset link is invalid or has expired. Please request a new one.';

/** Email verification and password reset: the two flows that go through the user's inbox. */
export class RecoveryService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly users: UsersRepository,
    private readonly tokens: UserTokensService,
    private readonly sessions: SessionsService,
    private readonly settings: SettingsService,
    /** Queues the message (the 'mail' job, retried): a slow or unreachable mail server never holds up the request. */
    private readonly sendMail: (message: MailMessage) => Promise<void>,
    private readonly siteUrl: SiteUrl,
  ) {}

  async siteName(): Promise<string> {
    const name = await this.settings.get('branding.site_name');
    return typeof name === 'string' && name ? name : 'Drive';
  }

  async sendVerification(userId: number): Promise<void> {
    const user = await this.users.findById(userId);
    if (!user || user.email_verified_at) return;
    const token = await this.tokens.issue(user.id, 'verify_email', VERIFY_EMAIL_TTL_MS);
    const url = `${await this.siteUrl()}/auth/email/verify?token=${encodeURIComponent(token)}`;
    await this.sendMail(verifyEmailMessage(user.email, await this.siteName(), url));
  }

  /** Tells the previous address that the account's sign-in email changed, and to where. */
  async sendEmailChangedNotice(oldEmail: string, newEmail: string): Promise<void> {
    await this.sendMail(emailChangedMessage(oldEmail, await this.siteName(), newEmail, `${await this.siteUrl()}/forgot-password`));
  }

  /** Marks the email verified; answers false for an unknown, used or expired link. */
  async verifyEmail(token: string): Promise<boolean> {
    const result = await this.tokens.consume(token, 'verify_email');
    if ('error' in result) return false;
    const now = nowIso();
    await markVerified(this.db, [result.userId], now);
    return true;
  }

  /** Sends a reset link when the account exists; the caller answers the same either way. */
  async sendResetLink(email: string): Promise<void> {
    const user = await this.users.findByEmail(email);
    if (!user) return;
    const token = await this.tokens.issue(user.id, 'reset_password', RESET_PASSWORD_TTL_MS);
    const url = `${await this.siteUrl()}/password/reset/${encodeURIComponent(token)}?email=${encodeURIComponent(user.email)}`;
    await this.sendMail(resetPasswordMessage(user.email, await this.siteName(), url, RESET_PASSWORD_TTL_MS / 60_000));
  }

  async resetPassword(input: { token: string; email: string; password: string }): Promise<void> {
    const user = await this.users.findByEmail(input.email);
    if (!user) throw ValidationError.field('email', RESET_LINK_INVALID);
    // The token must belong to this email: a typo elsewhere does not burn someone's link.
    const result = await this.tokens.consume(input.token, 'reset_password', user.id);
    if ('error' in result) throw ValidationError.field('email', RESET_LINK_INVALID);

    const now = nowIso();
    await updateUser(this.db, user.id, {
      password: await hashPassword(input.password),
      // Following a mailed link proves the address.
      email_verified_at: user.email_verified_at ?? now,
      updated_at: now,
    });
    await this.sessions.endOthers(user.id);
  }
}
