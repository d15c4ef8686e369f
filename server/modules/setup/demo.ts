import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { nowIso } from '../../lib/time.js';
import { hashPassword } from '../auth/passwords.js';

/** Demo mode (spec §2 "Sign-in"): one admin with a simple password and 100 numbered accounts. */
export const DEMO_ADMIN = { email: 'admin@demo.com', password: 'admin' } as const;
export const DEMO_ACCOUNT_COUNT = 100;
export const DEMO_PASSWORD = 'demo';
export const demoAccountEmail = (n: number) => `demo${n}@demo.com`;

/** The credentials the login page is pre-filled with. */
export function demoCredentials(mode: 'singleAccount' | 'randomAccount', random = Math.random) {
  if (mode === 'singleAccount') return { email: DEMO_ADMIN.email, password: DEMO_ADMIN.password };
  const n = 1 + Math.floor(random() * DEMO_ACCOUNT_COUNT);
  return { email: demoAccountEmail(n), password: DEMO_PASSWORD };
}

/** Creates whatever demo accounts are missing and turns demo mode on. Safe to run at every start. */
export async function ensureDemoAccounts(db: Kysely<Database>): Promise<number> {
  const now = nowIso();
  const roles = await db.selectFrom('roles').select(['id', 'name', 'default']).execute();
  const defaultRoles = roles.filter((r) => r.default === 1).map((r) => r.id);
  const adminRole = roles.find((r) => r.name === 'admin')?.id;
  const wanted = [
    {
      email: DEMO_ADMIN.email,
      password: DEMO_ADMIN.password,
      first_name: 'Demo',
      last_name: 'Admin',
      roles: adminRole ? [adminRole, ...defaultRoles] : defaultRoles,
    },
    ...Array.from({ length: DEMO_ACCOUNT_COUNT }, (_, i) => ({
      email: demoAccountEmail(i + 1),
      password: DEMO_PASSWORD,
      first_name: 'Demo',
      last_name: `User ${i + 1}`,
      roles: defaultRoles,
    })),
  ];
  const existing = new Set((await db.selectFrom('users').select('email').where('email', 'like', '%@demo.com').execute()).map((u) => u.email));
  const missing = wanted.filter((u) => !existing.has(u.email));
  // One hash per distinct password: a hundred argon2 runs would slow every demo start for nothing.
  const hashes = new Map<string, string>();
  for (const password of new Set(missing.map((u) => u.password))) hashes.set(password, await hashPassword(password));
  await db.transaction().execute(async (trx) => {
    for (const account of missing) {
      const { id } = await trx
        .insertInto('users')
        .values({
          email: account.email,
          password: hashes.get(account.password)!,
          first_name: account.first_name,
          last_name: account.last_name,
          email_verified_at: now,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const roleId of account.roles) await trx.insertInto('user_roles').values({ user_id: id, role_id: roleId, created_at: now }).execute();
    }
    await trx
      .insertInto('settings')
      .values({ key: 'site.demo', value: 'true', private: 0, updated_at: now })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: 'true', updated_at: now }))
      .execute();
  });
  return missing.length;
}
