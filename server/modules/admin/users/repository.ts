import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../db/types.js';
import { parseJson } from '../../../lib/json.js';
import { chargedBytes } from '../../drive/repository.js';
import type { Restriction } from '../../permissions/policy.js';
import { contains } from '../paging.js';

export const USER_SORTS = ['name', 'email', 'created_at', 'last_active_at', 'space_used'] as const;
export type UserSort = (typeof USER_SORTS)[number];

export interface UserListQuery {
  page: number;
  perPage: number;
  query?: string | undefined;
  orderBy?: UserSort | undefined;
  orderDir: 'asc' | 'desc';
  roleId?: number | undefined;
  status?: 'active' | 'suspended' | 'unverified' | undefined;
}

export interface AdminUserRow {
  id: number;
  email: string;
  first_name: string | null;
  last_name: string | null;
  avatar: string | null;
  email_verified_at: string | null;
  suspended_at: string | null;
  created_at: string;
  last_active_at: string | null;
  space_used: number;
}

/** The SQL of the admin's user table: one page with space used and last activity, searched and sorted. */
export class AdminUsersRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async page(query: UserListQuery): Promise<{ rows: AdminUserRow[]; total: number }> {
    let base = this.db.selectFrom('users');
    if (query.query) {
      const text = query.query;
      base = base.where((eb) => eb.or([contains('users.email', text), contains('users.first_name', text), contains('users.last_name', text)]));
    }
    if (query.roleId) {
      const roleId = query.roleId;
      base = base.where((eb) =>
        eb.exists(
          eb.selectFrom('user_roles').select('user_roles.user_id').whereRef('user_roles.user_id', '=', 'users.id').where('user_roles.role_id', '=', roleId),
        ),
      );
    }
    if (query.status === 'suspended') base = base.where('users.suspended_at', 'is not', null);
    if (query.status === 'active') base = base.where('users.suspended_at', 'is', null);
    if (query.status === 'unverified') base = base.where('users.email_verified_at', 'is', null);
    const { total } = await base.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow();

    const dir = query.orderDir;
    let rows = base.select((eb) => [
      'users.id',
      'users.email',
      'users.first_name',
      'users.last_name',
      'users.avatar',
      'users.email_verified_at',
      'users.suspended_at',
      'users.created_at',
      eb
        .selectFrom('sessions')
        .select((s) => s.fn.max('sessions.last_active_at').as('m'))
        .whereRef('sessions.user_id', '=', 'users.id')
        .where('sessions.impersonator_id', 'is', null)
        .as('last_active_at'),
      chargedBytes(this.db, eb.ref('users.id')).as('space_used'),
    ]);
    switch (query.orderBy ?? 'created_at') {
      case 'name':
        rows = rows.orderBy('users.first_name', dir).orderBy('users.last_name', dir);
        break;
      case 'email':
        rows = rows.orderBy('users.email', dir);
        break;
      case 'last_active_at':
        rows = rows.orderBy(sql`${sql.ref('last_active_at')} ${sql.raw(dir === 'asc' ? 'asc nulls first' : 'desc nulls last')}`);
        break;
      case 'space_used':
        rows = rows.orderBy(sql.ref('space_used'), dir);
        break;
      default:
        rows = rows.orderBy('users.created_at', dir);
    }
    const found = await rows
      .orderBy('users.id', dir)
      .limit(query.perPage)
      .offset((query.page - 1) * query.perPage)
      .execute();
    return {
      rows: found.map((row) => ({ ...row, last_active_at: (row.last_active_at as string | null) ?? null, space_used: Number(row.space_used ?? 0) })),
      total: Number(total),
    };
  }

  /** Each user's roles, for a page of users. */
  async rolesOf(userIds: number[]): Promise<Map<number, { id: number; name: string }[]>> {
    const result = new Map<number, { id: number; name: string }[]>();
    if (!userIds.length) return result;
    const rows = await this.db
      .selectFrom('user_roles')
      .innerJoin('roles', 'roles.id', 'user_roles.role_id')
      .select(['user_roles.user_id', 'roles.id', 'roles.name'])
      .where('user_roles.user_id', 'in', userIds)
      .orderBy('roles.id')
      .execute();
    for (const row of rows) result.set(row.user_id, [...(result.get(row.user_id) ?? []), { id: row.id, name: row.name }]);
    return result;
  }

  /** A user's direct permissions, as stored (restriction values included). */
  async directPermissions(userId: number, executor: Kysely<Database> = this.db): Promise<{ name: string; restrictions: Restriction[] }[]> {
    const rows = await executor
      .selectFrom('user_permissions')
      .innerJoin('permissions', 'permissions.id', 'user_permissions.permission_id')
      .select(['permissions.name', 'user_permissions.restrictions'])
      .where('user_permissions.user_id', '=', userId)
      .orderBy('permissions.id')
      .execute();
    return rows.map((row) => ({ name: row.name, restrictions: parseJson<Restriction[]>(row.restrictions, []) }));
  }

  /** Replaces a user's roles and direct permissions (inside the caller's transaction). */
  async replaceAccess(
    trx: Kysely<Database>,
    userId: number,
    access: { roleIds?: number[] | undefined; permissions?: { name: string; restrictions: Restriction[] }[] | undefined },
    now: string,
  ): Promise<void> {
    if (access.roleIds) {
      await trx.deleteFrom('user_roles').where('user_id', '=', userId).execute();
      for (const roleId of new Set(access.roleIds)) await trx.insertInto('user_roles').values({ user_id: userId, role_id: roleId, created_at: now }).execute();
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
}

/** Permission ids by name; unknown names are absent. */
export async function permissionIds(db: Kysely<Database>, names: string[]): Promise<Map<string, number>> {
  if (!names.length) return new Map();
  const rows = await db.selectFrom('permissions').select(['id', 'name']).where('name', 'in', names).execute();
  return new Map(rows.map((row) => [row.name, row.id]));
}
