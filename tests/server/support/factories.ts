import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../../server/db/types.js';
import { hashPassword } from '../../../server/modules/auth/passwords.js';
import { nowIso } from '../../../server/lib/time.js';
import { TestClient } from './client.js';
import { servicesOf } from './services-handle.js';

let counter = 0;

export interface CreatedUser {
  id: number;
  email: string;
  password: string;
}

/** A user with the default role (like a fresh registration) plus any extra roles or direct permissions. */
export async function createUser(
  db: Kysely<Database>,
  options: {
    email?: string;
    password?: string;
    roles?: string[];
    permissions?: { name: string; restrictions?: { name: string; value: string | number | boolean | null }[] }[];
    verified?: boolean;
  } = {},
): Promise<CreatedUser> {
  counter += 1;
  const email = options.email ?? `user${counter}-${Math.random().toString(36).slice(2, 7)}@example.com`;
  const password = options.password ?? 'correct horse battery staple';
  const now = nowIso();
  const { id } = await db
    .insertInto('users')
    .values({
      email,
      password: await hashPassword(password),
      first_name: 'Test',
      last_name: `User ${counter}`,
      email_verified_at: options.verified === false ? null : now,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const roleNames = ['users', ...(options.roles ?? [])];
  const roles = await db.selectFrom('roles').select('id').where('name', 'in', roleNames).execute();
  for (const role of roles) {
    await db.insertInto('user_roles').values({ user_id: id, role_id: role.id, created_at: now }).execute();
  }
  for (const grant of options.permissions ?? []) {
    const permission = await db.selectFrom('permissions').select('id').where('name', '=', grant.name).executeTakeFirstOrThrow();
    await db
      .insertInto('user_permissions')
      .values({ user_id: id, permission_id: permission.id, restrictions: JSON.stringify(grant.restrictions ?? []) })
      .execute();
  }
  return { id, email, password };
}

/**
 * Gives a user a copy of the default role without the named permissions: an
 * owner whose site role lacks an action (the ceiling no grant lifts).
 */
export async function withoutPermissions(db: Kysely<Database>, userId: number, names: string[]): Promise<void> {
  const now = nowIso();
  const base = await db.selectFrom('roles').select('id').where('name', '=', 'users').executeTakeFirstOrThrow();
  const role = await db
    .insertInto('roles')
    .values({ name: `users-without-${names.join('-')}-${userId}`, type: 'sitewide', created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const grants = await db
    .selectFrom('role_permissions')
    .innerJoin('permissions', 'permissions.id', 'role_permissions.permission_id')
    .select(['role_permissions.permission_id', 'role_permissions.restrictions', 'permissions.name'])
    .where('role_permissions.role_id', '=', base.id)
    .execute();
  for (const grant of grants.filter((g) => !names.includes(g.name))) {
    await db.insertInto('role_permissions').values({ role_id: role.id, permission_id: grant.permission_id, restrictions: grant.restrictions }).execute();
  }
  await db.updateTable('user_roles').set({ role_id: role.id }).where('user_id', '=', userId).where('role_id', '=', base.id).execute();
}

export type UserOptions = NonNullable<Parameters<typeof createUser>[1]>;

/** A new user (with createUser's options) signed in on a client of their own. */
export async function signedInUser(app: FastifyInstance, options: UserOptions = {}): Promise<{ user: CreatedUser; client: TestClient }> {
  const user = await createUser(servicesOf(app).db.kysely, options);
  const client = new TestClient(app);
  await client.login(user.email, user.password);
  return { user, client };
}
