import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../../db/types.js';
import { ValidationError, Forbidden, type FieldErrors } from '../../lib/errors.js';
import { nowIso } from '../../lib/time.js';
import type { SettingsService } from '../settings/service.js';
import type { UsersRepository } from '../users/repository.js';
import { defaultRoleIds, giveRoles, insertUser } from '../users/accounts.repository.js';
import { hashPassword } from './passwords.js';

export interface RegistrationInput {
  first_name: string;
  last_name: string;
  email: string;
  password: string;
  address?: string | null | undefined;
  city?: string | null | undefined;
  country?: string | null | undefined;
  zipcode?: string | null | undefined;
  /** One boolean per registration policy id. */
  accepted: Record<string, unknown>;
  language?: string | null | undefined;
}

export interface Policy {
  id: string;
  label: string;
}

export class RegistrationService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly users: UsersRepository,
    private readonly settings: SettingsService,
  ) {}

  async policies(): Promise<Policy[]> {
    const value = await this.settings.get('registration.policies');
    if (!Array.isArray(value)) return [];
    return value.flatMap((entry) =>
      entry && typeof entry === 'object' && !Array.isArray(entry) && typeof entry.id === 'string' && typeof entry.label === 'string'
        ? [{ id: entry.id, label: entry.label }]
        : [],
    );
  }

  async register(input: RegistrationInput): Promise<{ user: UserRow; needsEmailVerification: boolean }> {
    if ((await this.settings.get('registration.disable')) === true) throw Forbidden('Registration is disabled on this site.');

    const errors: FieldErrors = {};
    for (const policy of await this.policies()) {
      if (input.accepted[policy.id] !== true) errors[policy.id] = [{ template: 'You must accept the :name.', values: { name: policy.label } }];
    }
    const email = input.email.trim().toLowerCase();
    if (await this.users.findByEmail(email)) errors.email = ['The email has already been taken.'];
    if (Object.keys(errors).length) throw new ValidationError(errors);

    const needsEmailVerification = (await this.settings.get('require_email_confirmation')) === true;
    const now = nowIso();
    const password = await hashPassword(input.password);
    const user = await this.db.transaction().execute(async (trx) => {
      const created = await insertUser(trx, {
        email,
        password,
        first_name: input.first_name.trim(),
        last_name: input.last_name.trim(),
        address: input.address ?? null,
        city: input.city ?? null,
        country: input.country ?? null,
        zipcode: input.zipcode ?? null,
        language: input.language ?? null,
        email_verified_at: needsEmailVerification ? null : now,
        created_at: now,
        updated_at: now,
      });
      await giveRoles(trx, created.id, await defaultRoleIds(trx), now);
      return created;
    });
    return { user, needsEmailVerification };
  }
}
