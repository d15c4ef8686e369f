import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { Conflict } from '../../lib/errors.js';
import { ADMIN_PERMISSION } from '../permissions/policy.js';

export const OWN_ADMIN_ACCESS = 'You cannot remove your own admin access.';
export const LAST_ADMIN = 'There must be at least one admin: this would leave none.';

/** The names of a user's site permissions, from their roles and direct grants (inside the caller's transaction). */
export async function permissionNames(db: Kysely<Database>, userId: number): Promise<Set<string>> {
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
export async function rolePermissionNames(db: Kysely<Database>, roleIds: number[]): Promise<Set<string>> {
  if (!roleIds.length) return new Set();
  const rows = await db
    .selectFrom('role_permissions')
    .innerJoin('permissions', 'permissions.id', 'role_permissions.permission_id')
    .select('permissions.name')
    .where('role_permissions.role_id', 'in', roleIds)
    .execute();
  return new Set(rows.map((row) => row.name));
}

/** Ids of the accounts that hold `admin` (by a role or directly) and are not suspended. */
export async function adminIds(db: Kysely<Database>): Promise<number[]> {
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

/** Whether these permission names open the admin area. */
export const opensAdmin = (names: Set<string>) => names.has(ADMIN_PERMISSION) || names.has('admin.access');

/**
 * Taken before a change, run after it inside its transaction: a caller who
 * could open the admin area still can, and at least one admin remains, else
 * the change is refused (409) and rolled back.
 */
export async function adminGuard(db: Kysely<Database>, callerId: number): Promise<(trx: Kysely<Database>) => Promise<void>> {
  const had = opensAdmin(await permissionNames(db, callerId));
  const anyAdmin = (await adminIds(db)).length > 0;
  return async (trx) => {
    if (had) {
      const caller = await trx.selectFrom('users').select('suspended_at').where('id', '=', callerId).executeTakeFirst();
      if (!caller || caller.suspended_at || !opensAdmin(await permissionNames(trx, callerId))) throw Conflict(OWN_ADMIN_ACCESS);
    }
    if (anyAdmin && (await adminIds(trx)).length === 0) throw Conflict(LAST_ADMIN);
  };
}
