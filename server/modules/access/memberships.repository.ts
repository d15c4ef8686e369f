import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import type { Membership } from './workspace-policy.js';

type Db = Kysely<Database>;

/**
 * A user's memberships of the given workspaces, with their role's
 * permissions: what the workspace policy and the workspace grant source
 * decide from. Two indexed queries, whatever the number of workspaces.
 */
export async function loadMemberships(db: Db, userId: number, workspaceIds: readonly number[]): Promise<Map<number, Membership>> {
  const memberships = new Map<number, Membership>();
  const ids = [...new Set(workspaceIds)];
  if (!ids.length) return memberships;
  const rows = await db
    .selectFrom('workspace_members')
    .innerJoin('workspaces', 'workspaces.id', 'workspace_members.workspace_id')
    .select([
      'workspace_members.id as member_id',
      'workspace_members.workspace_id',
      'workspace_members.role_id',
      'workspace_members.is_owner',
      'workspaces.owner_id',
    ])
    .where('workspace_members.user_id', '=', userId)
    .where('workspace_members.workspace_id', 'in', ids)
    .execute();
  const roleIds = [...new Set(rows.map((row) => row.role_id).filter((id): id is number => id !== null))];
  const permissionsByRole = await rolePermissions(db, roleIds);
  for (const row of rows) {
    memberships.set(row.workspace_id, {
      workspaceId: row.workspace_id,
      memberId: row.member_id,
      ownerId: row.owner_id,
      isOwner: row.is_owner === 1 || row.owner_id === userId,
      roleId: row.role_id,
      permissions: row.role_id === null ? new Set() : (permissionsByRole.get(row.role_id) ?? new Set()),
    });
  }
  return memberships;
}

export async function loadMembership(db: Db, userId: number, workspaceId: number): Promise<Membership | undefined> {
  return (await loadMemberships(db, userId, [workspaceId])).get(workspaceId);
}

/** The permission names of each workspace role. */
export async function rolePermissions(db: Db, roleIds: readonly number[]): Promise<Map<number, Set<string>>> {
  const byRole = new Map<number, Set<string>>();
  if (!roleIds.length) return byRole;
  const rows = await db
    .selectFrom('role_permissions')
    .innerJoin('permissions', 'permissions.id', 'role_permissions.permission_id')
    .select(['role_permissions.role_id', 'permissions.name'])
    .where('role_permissions.role_id', 'in', [...roleIds])
    .execute();
  for (const row of rows) {
    const names = byRole.get(row.role_id) ?? new Set<string>();
    names.add(row.name);
    byRole.set(row.role_id, names);
  }
  return byRole;
}
