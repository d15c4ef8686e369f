import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../../db/types.js';
import { Conflict, Forbidden, NotFound, ValidationError } from '../../lib/errors.js';
import { nowIso } from '../../lib/time.js';
import type { AuthService, SessionProof } from '../auth/service.js';
import type { UsersRepository } from '../users/repository.js';
import { defaultRoleIds, giveRoles, insertUser } from '../users/accounts.repository.js';
import type { SettingsService } from '../settings/service.js';
import type { SocialProfile, SocialService } from './providers.js';

type SocialProof = Extract<SessionProof, { kind: 'social' }>;

export type LoginOutcome = { kind: 'proof'; proof: SocialProof } | { kind: 'needs-password'; email: string } | { kind: 'error'; message: string };

/** A provider's profile waiting, between REQUEST_PASSWORD and the password, to be linked to the account with its address. */
export interface PendingLink {
  service: SocialService;
  profile: Pick<SocialProfile, 'id' | 'name' | 'email'>;
}

/** Linking provider accounts to users, and signing in through them. */
export class SocialAccountsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly users: UsersRepository,
    private readonly settings: SettingsService,
    private readonly auth: Pick<AuthService, 'verifyPassword'>,
  ) {}

  private findProfile(service: SocialService, profileId: string) {
    return this.db
      .selectFrom('social_profiles')
      .select(['id', 'user_id'])
      .where('service_name', '=', service)
      .where('user_service_id', '=', profileId)
      .executeTakeFirst();
  }

  /**
   * A known profile signs its user in; a new email creates an account; an
   * email that already has an account must prove it owns it (its password)
   * before the profile is linked, or anyone controlling a provider account with
   * that address could take the account over.
   */
  async login(service: SocialService, profile: SocialProfile): Promise<LoginOutcome> {
    const linked = await this.findProfile(service, profile.id);
    if (linked) return { kind: 'proof', proof: { kind: 'social', userId: linked.user_id } };
    if (!profile.email) return { kind: 'error', message: 'Your account on this service has no email address we can use.' };

    const existing = await this.users.findByEmail(profile.email);
    if (existing) return { kind: 'needs-password', email: existing.email };

    if ((await this.settings.get('registration.disable')) === true) {
      return { kind: 'error', message: 'Registration is disabled on this site.' };
    }
    const now = nowIso();
    const userId = await this.db.transaction().execute(async (trx) => {
      const created = await insertUser(trx, {
        email: profile.email!,
        password: null,
        first_name: profile.firstName ?? profile.name,
        last_name: profile.lastName,
        email_verified_at: profile.emailVerified ? now : null,
        created_at: now,
        updated_at: now,
      });
      await giveRoles(trx, created.id, await defaultRoleIds(trx), now);
      await trx
        .insertInto('social_profiles')
        .values({ user_id: created.id, service_name: service, user_service_id: profile.id, username: profile.name ?? profile.email, created_at: now })
        .execute();
      return created.id;
    });
    return { kind: 'proof', proof: { kind: 'social', userId } };
  }

  /**
   * After REQUEST_PASSWORD: the account's own password (checked like any
   * sign-in, suspension included) links the provider's profile to it.
   */
  async linkWithPassword(pending: PendingLink | null, password: string, ip: string): Promise<SocialProof> {
    const email = pending?.profile.email;
    if (!pending || !email) throw ValidationError.field('password', 'This sign-in attempt has expired. Please try again.');
    const user = await this.auth.verifyPassword({ purpose: 'link', email }, password, ip);
    await this.connect(user, pending.service, pending.profile);
    return { kind: 'social', userId: user.id };
  }

  async connect(user: UserRow, service: SocialService, profile: Pick<SocialProfile, 'id' | 'name' | 'email'>): Promise<void> {
    const linked = await this.findProfile(service, profile.id);
    if (linked && linked.user_id !== user.id) throw Conflict('This account is already connected to another user.');
    if (linked) return;
    await this.db.deleteFrom('social_profiles').where('user_id', '=', user.id).where('service_name', '=', service).execute();
    await this.db
      .insertInto('social_profiles')
      .values({ user_id: user.id, service_name: service, user_service_id: profile.id, username: profile.name ?? profile.email, created_at: nowIso() })
      .execute();
  }

  async disconnect(user: UserRow, service: SocialService): Promise<void> {
    const profile = await this.db
      .selectFrom('social_profiles')
      .select('id')
      .where('user_id', '=', user.id)
      .where('service_name', '=', service)
      .executeTakeFirst();
    if (!profile) throw NotFound('This account is not connected.');
    if (!user.password) {
      const others = await this.db.selectFrom('social_profiles').select('id').where('user_id', '=', user.id).execute();
      if (others.length <= 1) throw Forbidden('Set a password before disconnecting your only way to sign in.');
    }
    await this.db.deleteFrom('social_profiles').where('id', '=', profile.id).execute();
  }
}
