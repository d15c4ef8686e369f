import countriesLib from 'i18n-iso-countries';
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../../db/types.js';
import { Conflict, Forbidden, NotFound, ValidationError, type FieldErrors } from '../../lib/errors.js';
import { safeFetch, UnsafeUrlError } from '../../lib/safe-fetch.js';
import { isTimezone, nowIso } from '../../lib/time.js';
import { userActor } from '../access/actor.js';
import { mayManageAccount } from '../access/policy.js';
import { hashPassword } from '../auth/passwords.js';
import type { RecoveryService } from '../auth/recovery.js';
import type { AuthService } from '../auth/service.js';
import type { SecondFactorAnswer, TwoFactorService } from '../auth/two-factor/service.js';
import { accessTokensOf } from '../auth/access-tokens.repository.js';
import type { TokenScope } from '../auth/token-scopes.js';
import type { SessionsService } from '../auth/sessions.js';
import type { LocalizationsService } from '../localizations/service.js';
import type { SettingsService } from '../settings/service.js';
import { profilesOf } from '../social/profiles.repository.js';
import { adminRoleHolderIds, deleteUser, emailTaken, updateUser, userById } from './accounts.repository.js';
import { AVATAR_MAX_BYTES, type AvatarInput, type AvatarStore } from './avatars.js';
import type { UserWithAccess } from './repository.js';

export interface ProfileInput {
  first_name?: string | null | undefined;
  last_name?: string | null | undefined;
  email?: string | undefined;
  email2?: string | null | undefined;
  company?: string | null | undefined;
  designation?: string | null | undefined;
  mobile?: string | null | undefined;
  address?: string | null | undefined;
  city?: string | null | undefined;
  country?: string | null | undefined;
  zipcode?: string | null | undefined;
  language?: string | null | undefined;
  timezone?: string | null | undefined;
}

/**
 * How the caller proves it is really them before the account itself changes
 * (sign-in email, deletion): a stolen token or an unattended browser must not
 * be enough (issue 10).
 */
export interface AccountProof {
  currentPassword?: string | null;
  /** A second factor instead of the password, for an account without one (issue 36, item 5). */
  secondFactor?: SecondFactorAnswer | undefined;
  via: 'session' | 'token' | null;
  tokenScopes: TokenScope[] | null;
  /** When the session signed in: accounts without a password confirm with a fresh sign-in. */
  signedInAt: string | null;
  /** The session in use, kept when the others are ended. */
  sessionToken: string | null;
  ip: string;
}

export const NO_SECOND_FACTOR = 'Two-factor sign-in is not turned on for your account.';

/** How recent a sign-in confirms an account change for an account that has no password. */
export const FRESH_SIGN_IN_MS = 10 * 60 * 1000;

/** What a user does to their own account (spec §2 "Account settings"). */
export class AccountService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly settings: SettingsService,
    private readonly localizations: LocalizationsService,
    private readonly sessions: SessionsService,
    private readonly recovery: RecoveryService,
    private readonly avatars: AvatarStore,
    /** The drive's part of deleting an account: the user's entries, then their bytes. */
    private readonly driveData: {
      deleteEntriesOf(trx: Kysely<Database>, userId: number): Promise<string[]>;
      purgeBytes(prefixes: string[]): Promise<void>;
    },
    private readonly auth: Pick<AuthService, 'verifyPassword'>,
    /** A second factor confirms account changes for an account without a password. */
    private readonly secondFactors: Pick<TwoFactorService, 'enabled' | 'verify'>,
    private readonly fetchOptions: { isBlocked?: (address: string) => boolean } = {},
    /** Ends the user's paid subscriptions at the payment provider before the account goes. */
    private readonly billing: { endSubscriptions(userId: number): Promise<void> } = { endSubscriptions: async () => {} },
  ) {}

  /**
   * The checks before a change to the account itself: over a personal access
   * token it needs the `account` scope; then the current password (throttled),
   * or, for an account made by social sign-in without one, a second factor
   * (verified as a sign-in's second step is) or a sign-in within the last ten
   * minutes.
   */
  async confirmAccountChange(user: UserRow, proof: AccountProof): Promise<void> {
    if (proof.via === 'token' && !proof.tokenScopes?.includes('account')) {
      throw Forbidden('This token may not change the account. Create a token with the account scope.');
    }
    if (user.password) return this.confirmPassword(user, proof.currentPassword ?? undefined, proof.ip);
    if (proof.secondFactor) return this.confirmSecondFactor(user, proof);
    const fresh = proof.signedInAt !== null && Date.now() - Date.parse(proof.signedInAt) < FRESH_SIGN_IN_MS;
    if (!fresh) throw ValidationError.field('current_password', 'Sign in again to confirm this change.');
  }

  /** `actor` is who asks (themself, or an admin): they confirm an email change with their own proof. */
  async updateProfile(actor: UserRow, user: UserRow, input: ProfileInput, proof: AccountProof): Promise<void> {
    const errors: FieldErrors = {};
    const changes: Partial<Record<keyof ProfileInput, string | null>> = {};
    for (const [key, value] of Object.entries(input) as [keyof ProfileInput, string | null | undefined][]) {
      if (value === undefined) continue;
      changes[key] = value === '' ? null : value;
    }
    if (changes.country && !countriesLib.isValid(changes.country.toUpperCase())) errors.country = ['The selected country is invalid.'];
    if (changes.country) changes.country = changes.country.toLowerCase();
    if (changes.timezone && !isTimezone(changes.timezone)) errors.timezone = ['The selected timezone is invalid.'];
    if (changes.language && !(await this.localizations.find(changes.language))) errors.language = ['This language is not available.'];
    if ('email' in changes && !changes.email) errors.email = ['The email field is required.'];
    const email = changes.email?.toLowerCase();
    const emailChanged = email !== undefined && email !== user.email;
    if (emailChanged) {
      if (await emailTaken(this.db, email)) errors.email = ['The email has already been taken.'];
    }
    if (Object.keys(errors).length) throw new ValidationError(errors);
    if (emailChanged) await this.confirmAccountChange(actor, proof);

    const needsVerification = emailChanged && (await this.settings.get('require_email_confirmation')) === true;
    await updateUser(this.db, user.id, {
      ...changes,
      ...(email !== undefined ? { email } : {}),
      ...(needsVerification ? { email_verified_at: null } : {}),
      updated_at: nowIso(),
    } as Partial<UserRow>);
    if (needsVerification) await this.recovery.sendVerification(user.id);
    if (emailChanged) {
      // The old address hears of it (if it was not them, they know at once), and every other session ends.
      await this.recovery.sendEmailChangedNotice(user.email, email!);
      await this.sessions.endOthers(user.id, actor.id === user.id ? (proof.sessionToken ?? undefined) : undefined);
    }
  }

  /** A second factor of the caller's own, throttled and spent as a sign-in's second step (TwoFactorService.verify). */
  async confirmSecondFactor(user: UserRow, proof: AccountProof): Promise<void> {
    if (!proof.secondFactor || !(await this.secondFactors.enabled(user.id))) throw ValidationError.field('second_factor', NO_SECOND_FACTOR);
    await this.secondFactors.verify(user.id, proof.secondFactor, proof.ip);
  }

  /** Asks for the current password again, verified as a sign-in's is (AuthService.verifyPassword). */
  async confirmPassword(user: UserRow, password: string | undefined, ip: string): Promise<void> {
    if (!password) throw ValidationError.field('current_password', 'Enter your current password to confirm this change.');
    await this.auth.verifyPassword({ purpose: 'confirm', user }, password, ip);
  }

  async changePassword(user: UserRow, input: { current_password: string; new_password: string }, keepSession: string | null, ip: string) {
    await this.confirmPassword(user, input.current_password, ip);
    await updateUser(this.db, user.id, { password: await hashPassword(input.new_password), updated_at: nowIso() });
    // Whoever else held a session with the old password is signed out.
    await this.sessions.endOthers(user.id, keepSession ?? undefined);
  }

  async setAvatar(user: UserRow, input: AvatarInput): Promise<string> {
    return input.kind === 'file' ? this.replaceAvatar(user, await this.avatars.save(input.bytes)) : this.setAvatarFromUrl(user, input.url);
  }

  private async setAvatarFromUrl(user: UserRow, url: string): Promise<string> {
    let fetched;
    try {
      fetched = await safeFetch(url, { maxBytes: AVATAR_MAX_BYTES, timeoutMs: 5000, ...this.fetchOptions });
    } catch (error) {
      if (error instanceof UnsafeUrlError) throw ValidationError.field('url', error.message);
      throw error;
    }
    return this.replaceAvatar(user, await this.avatars.save(fetched.body));
  }

  async removeAvatar(user: UserRow): Promise<void> {
    await updateUser(this.db, user.id, { avatar: null, updated_at: nowIso() });
    await this.avatars.remove(user.avatar);
  }

  private async replaceAvatar(user: UserRow, url: string): Promise<string> {
    await updateUser(this.db, user.id, { avatar: url, updated_at: nowIso() });
    // Bytes go after the commit: a failed update never leaves a user without their image.
    await this.avatars.remove(user.avatar);
    return url;
  }

  /** Who may act on whose account: oneself, or an admin on others. */
  async target(actor: UserWithAccess, id: number | 'me'): Promise<UserRow> {
    const targetId = id === 'me' ? actor.id : id;
    if (!mayManageAccount(userActor(actor.id, actor.permissions), targetId)) throw Forbidden();
    const user = await userById(this.db, targetId);
    if (!user) throw NotFound('This user does not exist.');
    return user;
  }

  /**
   * Deleting an account: one's own needs the explicit confirmation; any
   * deletion, an admin's of someone else's too, needs the caller's own proof
   * (issue 30 finding 8: a session alone deletes nobody).
   */
  async deleteAccount(actor: UserWithAccess, user: UserRow, options: { confirmed: boolean; proof: AccountProof }): Promise<void> {
    if (user.id === actor.id && !options.confirmed) {
      throw ValidationError.field('deleteCurrentUser', 'Confirm deleting your own account with deleteCurrentUser=true.');
    }
    await this.confirmAccountChange(actor, options.proof);
    const admins = await adminRoleHolderIds(this.db);
    if (admins.length === 1 && admins[0] === user.id) {
      throw Conflict('This is the only admin account. Make someone else an admin before deleting it.');
    }
    // Nobody is charged for an account that no longer exists: Stripe stops first (if it cannot, nothing is deleted).
    await this.billing.endSubscriptions(user.id);
    // The drive's entries go first and explicitly (the owner key refuses to cascade); sessions, tokens,
    // roles, profiles and stars go with the row. The bytes follow only after the commit, so a failed
    // delete never leaves rows without bytes.
    const prefixes = await this.db.transaction().execute(async (trx) => {
      const owned = await this.driveData.deleteEntriesOf(trx, user.id);
      await deleteUser(trx, user.id);
      return owned;
    });
    await this.driveData.purgeBytes(prefixes);
    await this.avatars.remove(user.avatar);
  }

  async relations(userId: number, names: string[]) {
    const result: {
      social_profiles?: { id: number; service_name: string; username: string | null; created_at: string }[];
      tokens?: { id: number; name: string; scopes: TokenScope[]; last_used_at: string | null; expires_at: string | null; created_at: string }[];
    } = {};
    if (names.includes('social_profiles')) {
      result.social_profiles = await profilesOf(this.db, userId);
    }
    if (names.includes('tokens')) {
      result.tokens = await accessTokensOf(this.db, userId);
    }
    return result;
  }
}
