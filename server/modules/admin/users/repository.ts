import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../db/types.js';
import { lastActiveAt } from '../../auth/sessions.repository.js';
import { chargedBytes } from '../../drive/repository.js';
import { holdsRole } from '../../users/accounts.repository.js';
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

/**
 * The SQL of the admin's user table: one page with space used and last
 * activity, searched and sorted. A read model over users/' table; the figures
 * come from their owners' expressions (drive's chargedBytes, auth's lastActiveAt).
 */
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
      base = base.where((eb) => eb.exists(holdsRole(this.db, eb.ref('users.id'), roleId)));
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
      lastActiveAt(this.db, eb.ref('users.id')).as('last_active_at'),
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
}
