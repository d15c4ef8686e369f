import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../../db/types.js';
import { parseJson } from '../../lib/json.js';
import type { Permission, Restriction } from '../permissions/policy.js';
import type { AccessCache } from '../auth/access-cache.js';

export interface RoleSummary {
  id: number;
  name: string;
}

export interface UserWithAccess extends UserRow {
  roles: RoleSummary[];
  permissions: Permission[];
  /** One of the roles requires two-factor sign-in (issue 36): without a second factor, a session reaches only its set-up. */
  two_factor_required: boolean;
}

export class UsersRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly cache?: AccessCache,
  ) {}

  /** The user with roles and permissions, from the access cache when it holds them (authentication on every request). */
  async findWithAccess(id: number): Promise<UserWithAccess | null> {
    const load = async () => {
      const row = await this.findById(id);
      return row ? this.withAccess(row) : null;
    };
    return this.cache ? this.cache.users.get(id, load) : load();
  }

  findById(id: number): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByEmail(email: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('email', '=', email.trim().toLowerCase()).executeTakeFirst();
  }

  async withAccess(user: UserRow): Promise<UserWithAccess> {
    const rows = await this.db
      .selectFrom('user_roles')
      .innerJoin('roles', 'roles.id', 'user_roles.role_id')
      .select(['roles.id', 'roles.name', 'roles.require_two_factor'])
      .where('user_roles.user_id', '=', user.id)
      .orderBy('roles.id')
      .execute();
    const roles = rows.map((r) => ({ id: r.id, name: r.name }));
    const fromRoles = roles.length
      ? await this.db
          .selectFrom('role_permissions')
          .innerJoin('permissions', 'permissions.id', 'role_permissions.permission_id')
          .select(['permissions.name', 'role_permissions.restrictions'])
          .where(
            'role_permissions.role_id',
            'in',
            roles.map((r) => r.id),
          )
          .orderBy('permissions.id')
          .execute()
      : [];
    const direct = await this.db
      .selectFrom('user_permissions')
      .innerJoin('permissions', 'permissions.id', 'user_permissions.permission_id')
      .select(['permissions.name', 'user_permissions.restrictions'])
      .where('user_permissions.user_id', '=', user.id)
      .orderBy('permissions.id')
      .execute();
    const twoFactorRequired = rows.some((r) => r.require_two_factor === 1);
    return { ...user, roles, permissions: mergePermissions([...fromRoles, ...direct]), two_factor_required: twoFactorRequired };
  }

  /** The role whose permissions apply to signed-out visitors. */
  async guestRole(): Promise<{ id: number; name: string; permissions: Permission[] }> {
    return this.cache ? this.cache.guest.get('guest', () => this.loadGuestRole()) : this.loadGuestRole();
  }

  private async loadGuestRole(): Promise<{ id: number; name: string; permissions: Permission[] }> {
    const role = await this.db.selectFrom('roles').select(['id', 'name']).where('guests', '=', 1).executeTakeFirst();
    if (!role) return { id: 0, name: 'guests', permissions: [] };
    const rows = await this.db
      .selectFrom('role_permissions')
      .innerJoin('permissions', 'permissions.id', 'role_permissions.permission_id')
      .select(['permissions.name', 'role_permissions.restrictions'])
      .where('role_permissions.role_id', '=', role.id)
      .orderBy('permissions.id')
      .execute();
    return { ...role, permissions: mergePermissions(rows) };
  }
}

/**
 * One entry per permission name. Later grants (direct user permissions come
 * last) override a restriction of the same name from an earlier one.
 */
function mergePermissions(rows: { name: string; restrictions: string }[]): Permission[] {
  const byName = new Map<string, Map<string, Restriction>>();
  for (const row of rows) {
    const restrictions = byName.get(row.name) ?? new Map<string, Restriction>();
    for (const r of parseJson<Restriction[]>(row.restrictions, [])) restrictions.set(r.name, r);
    byName.set(row.name, restrictions);
  }
  return [...byName].map(([name, restrictions]) => ({ name, restrictions: [...restrictions.values()] }));
}
