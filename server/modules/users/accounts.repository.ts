import type { Expression, Insertable, Kysely, Updateable } from 'kysely';
import type { Database, UserRow, UsersTable } from '../../db/types.js';
import { parseJson } from '../../lib/json.js';
import { ADMIN_PERMISSION, type Restriction } from '../permissions/policy.js';

/**
 * SQL of accounts and their access, for every module that creates or changes
 * one (registration, social sign-in, the admin's users and roles). users/ owns
 * these tables (server/db/owners.ts); each function takes the executor so a
 * caller can run several in its own transaction.
 */
type Executor = Kysely<Database>;

export const userById = (db: Executor, id: number): Promise<UserRow | undefined> => db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();

export const usersByIds = (db: Executor, ids: number[]): Promise<UserRow[]> =>
  ids.length ? db.selectFrom('users').selectAll().where('id', 'in', ids).execute() : Promise.resolve([]);

/** A scalar subquery of how many accounts exist, for a read model's figures. */
export const userCount = (db: Executor) => db.selectFrom('users').select((eb) => eb.fn.countAll<number | string>().as('n'));

/** When each account made since `since` was made: rows to bucket by day. */
export const usersCreatedSince = (db: Executor, since: string) => db.selectFrom('users').select('users.created_at').where('users.created_at', '>=', since);

/** A scalar subquery of a user's email (`user` a column of the outer query), for others' read models. */
export const emailOf = (db: Executor, user: Expression<number>) => db.selectFrom('users').select('users.email').where('users.id', '=', user);

/** Whether an account signs in with this email (already trimmed and lower-cased). */
export async function emailTaken(db: Executor, email: string): Promise<boolean> {
  return Boolean(await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst());
}

export const insertUser = (db: Executor, values: Insertable<UsersTable>): Promise<UserRow> =>
  db.insertInto('users').values(values).returningAll().executeTakeFirstOrThrow();

export async function updateUser(db: Executor, id: number, changes: Updateable<UsersTable>): Promise<void> {
  await db.updateTable('users').set(changes).where('id', '=', id).execute();
}

/** Suspends (at `now`) or lifts the suspension of these accounts. */
export async function setSuspended(db: Executor, ids: number[], suspended: boolean, now: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ suspended_at: suspended ? now : null, updated_at: now })
    .where('id', 'in', ids)
    .execute();
}

/** Marks these accounts' emails verified; an account verified earlier keeps its date. */
export async function markVerified(db: Executor, ids: number[], now: string): Promise<void> {
  await db.updateTable('users').set({ email_verified_at: now, updated_at: now }).where('id', 'in', ids).where('email_verified_at', 'is', null).execute();
}

/** Deletes the account row (its entries go first: the key refuses an owner of entries). */
export async function deleteUser(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('users').where('id', '=', id).execute();
}

/** The sitewide roles a new account gets (the default flag only moves among sitewide roles). */
export async function defaultRoleIds(db: Executor): Promise<number[]> {
  return (await db.selectFrom('roles').select('id').where('default', '=', 1).where('type', '=', 'sitewide').execute()).map((r) => r.id);
}

/** How many of these ids are sitewide roles (workspace roles are not given to accounts). */
export async function countSitewideRoles(db: Executor, ids: number[]): Promise<number> {
  if (!ids.length) return 0;
  return (await db.selectFrom('roles').select('id').where('id', 'in', ids).where('type', '=', 'sitewide').execute()).length;
}

/** Adds roles to an account; a role it already holds stays as it was. */
export async function giveRoles(db: Executor, userId: number, roleIds: number[], now: string): Promise<void> {
  for (const roleId of new Set(roleIds)) {
    await db
      .insertInto('user_roles')
      .values({ user_id: userId, role_id: roleId, created_at: now })
      .onConflict((oc) => oc.columns(['user_id', 'role_id']).doNothing())
      .execute();
  }
}

/** Each user's roles, for a page of users. */
export async function rolesOf(db: Executor, userIds: number[]): Promise<Map<number, { id: number; name: string }[]>> {
  const result = new Map<number, { id: number; name: string }[]>();
  if (!userIds.length) return result;
  const rows = await db
    .selectFrom('user_roles')
    .innerJoin('roles', 'roles.id', 'user_roles.role_id')
    .select(['user_roles.user_id', 'roles.id', 'roles.name'])
    .where('user_roles.user_id', 'in', userIds)
    .orderBy('roles.id')
    .execute();
  for (const row of rows) result.set(row.user_id, [...(result.get(row.user_id) ?? []), { id: row.id, name: row.name }]);
  return result;
}

/** A condition for a read model over users: the user (a column of the outer query) holds this role. */
export const holdsRole = (db: Executor, user: Expression<number>, roleId: number) =>
  db.selectFrom('user_roles').select('user_roles.user_id').where('user_roles.user_id', '=', user).where('user_roles.role_id', '=', roleId);

/** A user's direct permissions, as stored (restriction values included). */
export async function directPermissions(db: Executor, userId: number): Promise<{ name: string; restrictions: Restriction[] }[]> {
  const rows = await db
    .selectFrom('user_permissions')
    .innerJoin('permissions', 'permissions.id', 'user_permissions.permission_id')
    .select(['permissions.name', 'user_permissions.restrictions'])
    .where('user_permissions.user_id', '=', userId)
    .orderBy('permissions.id')
    .execute();
  return rows.map((row) => ({ name: row.name, restrictions: parseJson<Restriction[]>(row.restrictions, []) }));
}

/** Permission ids by name; unknown names are absent. */
export async function permissionIds(db: Executor, names: string[]): Promise<Map<string, number>> {
  if (!names.length) return new Map();
  const rows = await db.selectFrom('permissions').select(['id', 'name']).where('name', 'in', names).execute();
  return new Map(rows.map((row) => [row.name, row.id]));
}

/** Replaces a user's roles and direct permissions (inside the caller's transaction); permission names must exist. */
export async function replaceAccess(
  trx: Executor,
  userId: number,
  access: { roleIds?: number[] | undefined; permissions?: { name: string; restrictions: Restriction[] }[] | undefined },
  now: string,
): Promise<void> {
  if (access.roleIds) {
    await trx.deleteFrom('user_roles').where('user_id', '=', userId).execute();
    await giveRoles(trx, userId, access.roleIds, now);
  }
  if (access.permissions) {
    await trx.deleteFrom('user_permissions').where('user_id', '=', userId).execute();
    const ids = await permissionIds(
      trx,
      access.permissions.map((p) => p.name),
    );
    for (const grant of access.permissions) {
      await trx
        .insertInto('user_permissions')
        .values({ user_id: userId, permission_id: ids.get(grant.name)!, restrictions: JSON.stringify(grant.restrictions) })
        .execute();
    }
  }
}

/** The names of a user's site permissions, from their roles and direct grants (inside the caller's transaction). */
export async function permissionNames(db: Executor, userId: number): Promise<Set<string>> {
  const viaRoles = await db
    .selectFrom('user_roles')
    .innerJoin('role_permissions', 'role_permissions.role_id', 'user_roles.role_id')
    .innerJoin('permissions', 'permissions.id', 'role_permissions.permission_id')
    .select('permissions.name')
    .where('user_roles.user_id', '=', userId)
    .execute();
  const direct = await db
    .selectFrom('user_permissions')
    .innerJoin('permissions', 'permissions.id', 'user_permissions.permission_id')
    .select('permissions.name')
    .where('user_permissions.user_id', '=', userId)
    .execute();
  return new Set([...viaRoles, ...direct].map((row) => row.name));
}

/** The names of the permissions the given roles carry: what giving someone those roles hands them. */
export async function rolePermissionNames(db: Executor, roleIds: number[]): Promise<Set<string>> {
  if (!roleIds.length) return new Set();
  const rows = await db
    .selectFrom('role_permissions')
    .innerJoin('permissions', 'permissions.id', 'role_permissions.permission_id')
    .select('permissions.name')
    .where('role_permissions.role_id', 'in', roleIds)
    .execute();
  return new Set(rows.map((row) => row.name));
}

/** Ids of the accounts holding the role named `admin` (not the permission: see adminIds). */
export async function adminRoleHolderIds(db: Executor): Promise<number[]> {
  const rows = await db
    .selectFrom('user_roles')
    .innerJoin('roles', 'roles.id', 'user_roles.role_id')
    .select('user_roles.user_id')
    .where('roles.name', '=', 'admin')
    .execute();
  return rows.map((row) => row.user_id);
}

/** Ids of the accounts that hold `admin` (by a role or directly) and are not suspended. */
export async function adminIds(db: Executor): Promise<number[]> {
  const viaRoles = await db
    .selectFrom('user_roles')
    .innerJoin('role_permissions', 'role_permissions.role_id', 'user_roles.role_id')
    .innerJoin('permissions', 'permissions.id', 'role_permissions.permission_id')
    .innerJoin('users', 'users.id', 'user_roles.user_id')
    .select('users.id')
    .where('permissions.name', '=', ADMIN_PERMISSION)
    .where('users.suspended_at', 'is', null)
    .execute();
  const direct = await db
    .selectFrom('user_permissions')
    .innerJoin('permissions', 'permissions.id', 'user_permissions.permission_id')
    .innerJoin('users', 'users.id', 'user_permissions.user_id')
    .select('users.id')
    .where('permissions.name', '=', ADMIN_PERMISSION)
    .where('users.suspended_at', 'is', null)
    .execute();
  return [...new Set([...viaRoles, ...direct].map((row) => row.id))];
}
