import type { Insertable, Kysely, Updateable } from 'kysely';
import type { Database, RolesTable } from '../../db/types.js';
import type { Restriction } from '../permissions/policy.js';

/**
 * SQL of roles and the permission catalogue, for the admin's role editor.
 * users/ owns these tables (server/db/owners.ts); each function takes the
 * executor so the editor runs a change and its guard rails in one transaction.
 */
type Executor = Kysely<Database>;

export const permissionCatalogue = (db: Executor) => db.selectFrom('permissions').selectAll().orderBy('id').execute();

export const allRoles = (db: Executor) => db.selectFrom('roles').selectAll().orderBy('type').orderBy('id').execute();

/** Every role's permissions, stored restrictions as JSON text. */
export const roleGrants = (db: Executor) =>
  db
    .selectFrom('role_permissions')
    .innerJoin('permissions', 'permissions.id', 'role_permissions.permission_id')
    .select(['role_permissions.role_id', 'permissions.name', 'role_permissions.restrictions'])
    .orderBy('permissions.id')
    .execute();

/** How many accounts hold each role (roles nobody holds are absent). */
export async function roleHolderCounts(db: Executor): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('user_roles')
    .select(['role_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .groupBy('role_id')
    .execute();
  return new Map(rows.map((c) => [c.role_id, Number(c.n)]));
}

export async function roleNameTaken(db: Executor, name: string, exceptId: number | null): Promise<boolean> {
  let query = db.selectFrom('roles').select('id').where('name', '=', name);
  if (exceptId !== null) query = query.where('id', '!=', exceptId);
  return Boolean(await query.executeTakeFirst());
}

export async function insertRole(db: Executor, values: Insertable<RolesTable>): Promise<number> {
  return (await db.insertInto('roles').values(values).returning('id').executeTakeFirstOrThrow()).id;
}

export async function updateRole(db: Executor, id: number, changes: Updateable<RolesTable>): Promise<void> {
  await db.updateTable('roles').set(changes).where('id', '=', id).execute();
}

/** Replaces a role's permissions; `ids` maps each permission name to its id (every name must be there). */
export async function replaceRolePermissions(
  db: Executor,
  roleId: number,
  grants: { name: string; restrictions: Restriction[] }[],
  ids: Map<string, number>,
): Promise<void> {
  await db.deleteFrom('role_permissions').where('role_id', '=', roleId).execute();
  for (const grant of grants) {
    await db
      .insertInto('role_permissions')
      .values({ role_id: roleId, permission_id: ids.get(grant.name)!, restrictions: JSON.stringify(grant.restrictions) })
      .execute();
  }
}

/** There is one default sitewide role (given at registration) and one guest role: marking one unmarks the other. */
export async function makeSole(db: Executor, flag: 'default' | 'guests', roleId: number): Promise<void> {
  let unmark = db
    .updateTable('roles')
    .set({ [flag]: 0 })
    .where(flag, '=', 1);
  if (flag === 'default') unmark = unmark.where('type', '=', 'sitewide');
  await unmark.execute();
  await db
    .updateTable('roles')
    .set({ [flag]: 1 })
    .where('id', '=', roleId)
    .execute();
}

/** Deletes a role with its grants and its holders' hold on it (workspace members let go of it first, in workspaces/). */
export async function deleteRole(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('user_roles').where('role_id', '=', id).execute();
  await db.deleteFrom('role_permissions').where('role_id', '=', id).execute();
  await db.deleteFrom('roles').where('id', '=', id).execute();
}
