import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { nowIso } from '../../lib/time.js';
import { hashPassword } from '../auth/passwords.js';

export const DEFAULT_ADMIN_EMAIL = 'admin@example.com';

export interface CreatedAdmin {
  email: string;
  /** Present only when the password was generated here, so it can be shown once. */
  generatedPassword: string | null;
}

/**
 * On the first start there is nobody to sign in as: create an admin from
 * ADMIN_EMAIL/ADMIN_PASSWORD, or with a generated password that is printed
 * once and stored only as its argon2id hash. Does nothing once any admin exists.
 */
export async function ensureFirstAdmin(
  db: Kysely<Database>,
  wanted: { email: string | undefined; password: string | undefined },
): Promise<CreatedAdmin | null> {
  const adminRole = await db.selectFrom('roles').select('id').where('name', '=', 'admin').executeTakeFirstOrThrow();
  const existing = await db.selectFrom('user_roles').select('user_id').where('role_id', '=', adminRole.id).executeTakeFirst();
  if (existing) return null;

  const email = (wanted.email ?? DEFAULT_ADMIN_EMAIL).trim().toLowerCase();
  const generatedPassword = wanted.password ? null : randomBytes(15).toString('base64url');
  const password = await hashPassword(wanted.password ?? generatedPassword!);
  const now = nowIso();

  await db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
    const userId =
      user?.id ??
      (
        await trx
          .insertInto('users')
          .values({ email, password, first_name: 'Admin', email_verified_at: now, created_at: now, updated_at: now })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    if (user) await trx.updateTable('users').set({ password, updated_at: now }).where('id', '=', userId).execute();
    const defaults = await trx.selectFrom('roles').select('id').where('default', '=', 1).execute();
    for (const roleId of [adminRole.id, ...defaults.map((r) => r.id)]) {
      await trx
        .insertInto('user_roles')
        .values({ user_id: userId, role_id: roleId, created_at: now })
        .onConflict((oc) => oc.columns(['user_id', 'role_id']).doNothing())
        .execute();
    }
  });
  return { email, generatedPassword };
}
