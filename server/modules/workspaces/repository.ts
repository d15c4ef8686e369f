import type { Kysely } from 'kysely';
import type { Database, WorkspaceInviteRow, WorkspaceRow } from '../../db/types.js';
import { nowIso } from '../../lib/time.js';
import { rolePermissions } from '../access/memberships.repository.js';
import { displayName } from '../users/presenter.js';
import type { MemberRowOut } from './schemas.js';

export type Executor = Kysely<Database>;

/** A deleted role leaves the members and invites that held it roleless (inside the deletion's transaction). */
export async function letGoOfRole(db: Executor, roleId: number): Promise<void> {
  await db.updateTable('workspace_members').set({ role_id: null }).where('role_id', '=', roleId).execute();
  await db.updateTable('workspace_invites').set({ role_id: null }).where('role_id', '=', roleId).execute();
}

/** A scalar subquery of how many workspaces exist, for a read model's figures. */
export const workspaceCount = (db: Executor) => db.selectFrom('workspaces').select((eb) => eb.fn.countAll<number | string>().as('n'));

/** The rows behind the workspace calls; every decision is the access policy's. */
export class WorkspacesRepository {
  constructor(private readonly db: Executor) {}

  find(id: number, db: Executor = this.db): Promise<WorkspaceRow | undefined> {
    return db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The workspaces a user is a member of (owned ones included), oldest first, with their member counts. */
  listFor(userId: number) {
    return this.db
      .selectFrom('workspace_members as mine')
      .innerJoin('workspaces', 'workspaces.id', 'mine.workspace_id')
      .select((eb) => [
        'workspaces.id',
        'workspaces.name',
        'workspaces.owner_id',
        'workspaces.created_at',
        eb
          .selectFrom('workspace_members')
          .select((inner) => inner.fn.countAll<number | string>().as('count'))
          .whereRef('workspace_members.workspace_id', '=', 'workspaces.id')
          .as('members_count'),
      ])
      .where('mine.user_id', '=', userId)
      .orderBy('workspaces.id')
      .execute();
  }

  async membersCount(workspaceId: number): Promise<number> {
    const row = await this.db
      .selectFrom('workspace_members')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  }

  async ownedCount(userId: number, db: Executor = this.db): Promise<number> {
    const row = await db
      .selectFrom('workspaces')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('owner_id', '=', userId)
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  }

  async create(db: Executor, ownerId: number, name: string): Promise<number> {
    const now = nowIso();
    const { id } = await db
      .insertInto('workspaces')
      .values({ name, owner_id: ownerId, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('workspace_members')
      .values({ workspace_id: id, user_id: ownerId, role_id: null, is_owner: 1, created_at: now, updated_at: now })
      .execute();
    return id;
  }

  async rename(id: number, name: string): Promise<void> {
    await this.db.updateTable('workspaces').set({ name, updated_at: nowIso() }).where('id', '=', id).execute();
  }

  async delete(db: Executor, id: number): Promise<void> {
    await db.deleteFrom('workspaces').where('id', '=', id).execute();
  }

  /** The member rows of spec §3: the owner first, then by joining order. */
  async members(workspaceId: number): Promise<MemberRowOut[]> {
    const rows = await this.db
      .selectFrom('workspace_members')
      .innerJoin('users', 'users.id', 'workspace_members.user_id')
      .leftJoin('roles', 'roles.id', 'workspace_members.role_id')
      .select([
        'workspace_members.id as member_id',
        'workspace_members.user_id',
        'workspace_members.role_id',
        'workspace_members.is_owner',
        'roles.name as role_name',
        'users.email',
        'users.first_name',
        'users.last_name',
        'users.avatar',
      ])
      .where('workspace_members.workspace_id', '=', workspaceId)
      .orderBy('workspace_members.is_owner', 'desc')
      .orderBy('workspace_members.id')
      .execute();
    const roleIds = [...new Set(rows.map((row) => row.role_id).filter((id): id is number => id !== null))];
    const permissions = await rolePermissions(this.db, roleIds);
    return rows.map((row) => ({
      model_type: 'member' as const,
      id: row.user_id,
      member_id: row.member_id,
      display_name: displayName(row),
      email: row.email,
      avatar: row.avatar,
      role_id: row.role_id,
      role_name: row.role_name,
      is_owner: row.is_owner === 1,
      permissions: [...(row.role_id === null ? [] : (permissions.get(row.role_id) ?? []))].sort().map((name) => ({ name })),
    }));
  }

  /** Open invites as member rows ('Invited'); expired ones are not shown (they can no longer be used). */
  async invites(workspaceId: number): Promise<MemberRowOut[]> {
    const rows = await this.db
      .selectFrom('workspace_invites')
      .leftJoin('roles', 'roles.id', 'workspace_invites.role_id')
      .leftJoin('users', 'users.email', 'workspace_invites.email')
      .select([
        'workspace_invites.id',
        'workspace_invites.email',
        'workspace_invites.role_id',
        'roles.name as role_name',
        'users.first_name',
        'users.last_name',
        'users.avatar',
      ])
      .where('workspace_invites.workspace_id', '=', workspaceId)
      .where('workspace_invites.expires_at', '>', nowIso())
      // Sending order: one call invites many addresses in the same millisecond, and the ids are random.
      .orderBy('workspace_invites.seq')
      .execute();
    return rows.map((row) => ({
      model_type: 'invite' as const,
      id: row.id,
      display_name: displayName({ first_name: row.first_name ?? null, last_name: row.last_name ?? null, email: row.email }),
      email: row.email,
      avatar: row.avatar ?? null,
      role_id: row.role_id,
      role_name: row.role_name,
      is_owner: false,
      permissions: [],
    }));
  }

  /** A role members can hold, or undefined for an unknown id or a site role. */
  workspaceRole(roleId: number) {
    return this.db.selectFrom('roles').select(['id', 'name']).where('id', '=', roleId).where('type', '=', 'workspace').executeTakeFirst();
  }

  workspaceRoles() {
    return this.db.selectFrom('roles').select(['id', 'name', 'description']).where('type', '=', 'workspace').orderBy('id').execute();
  }

  findMember(workspaceId: number, memberId: number) {
    return this.db.selectFrom('workspace_members').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', memberId).executeTakeFirst();
  }

  memberEmails(workspaceId: number): Promise<{ email: string }[]> {
    return this.db
      .selectFrom('workspace_members')
      .innerJoin('users', 'users.id', 'workspace_members.user_id')
      .select('users.email')
      .where('workspace_members.workspace_id', '=', workspaceId)
      .execute();
  }

  async setMemberRole(memberId: number, roleId: number): Promise<void> {
    await this.db.updateTable('workspace_members').set({ role_id: roleId, updated_at: nowIso() }).where('id', '=', memberId).execute();
  }

  async removeMember(memberId: number): Promise<void> {
    await this.db.deleteFrom('workspace_members').where('id', '=', memberId).execute();
  }

  /** Adds the member unless they already are one (two tabs accepting the same invite). */
  async addMember(db: Executor, workspaceId: number, userId: number, roleId: number | null): Promise<void> {
    const now = nowIso();
    await db
      .insertInto('workspace_members')
      .values({ workspace_id: workspaceId, user_id: userId, role_id: roleId, is_owner: 0, created_at: now, updated_at: now })
      .onConflict((oc) => oc.columns(['workspace_id', 'user_id']).doNothing())
      .execute();
  }

  /** The ids among these of invites still open (unanswered and not expired). */
  async openInviteIds(ids: string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const rows = await this.db.selectFrom('workspace_invites').select('id').where('id', 'in', ids).where('expires_at', '>', nowIso()).execute();
    return new Set(rows.map((row) => row.id));
  }

  findInvite(id: string, db: Executor = this.db): Promise<WorkspaceInviteRow | undefined> {
    return db.selectFrom('workspace_invites').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * One open invite per address and workspace: inviting again renews it (new link, role and expiry).
   * One statement on the unique (workspace, email) pair, so two invites sent at once cannot both insert
   * (a delete-then-insert let both deletes find nothing and the second insert break the constraint).
   */
  async upsertInvite(invite: { id: string; workspaceId: number; email: string; roleId: number; invitedBy: number; expiresAt: string }): Promise<void> {
    const now = nowIso();
    await this.db
      .insertInto('workspace_invites')
      .values({
        id: invite.id,
        workspace_id: invite.workspaceId,
        email: invite.email,
        role_id: invite.roleId,
        invited_by: invite.invitedBy,
        created_at: now,
        updated_at: now,
        expires_at: invite.expiresAt,
      })
      .onConflict((oc) =>
        oc.columns(['workspace_id', 'email']).doUpdateSet((eb) => ({
          id: eb.ref('excluded.id'),
          role_id: eb.ref('excluded.role_id'),
          invited_by: eb.ref('excluded.invited_by'),
          created_at: eb.ref('excluded.created_at'),
          updated_at: eb.ref('excluded.updated_at'),
          expires_at: eb.ref('excluded.expires_at'),
        })),
      )
      .execute();
  }

  async renewInvite(id: string, expiresAt: string): Promise<void> {
    await this.db.updateTable('workspace_invites').set({ expires_at: expiresAt, updated_at: nowIso() }).where('id', '=', id).execute();
  }

  async setInviteRole(id: string, roleId: number): Promise<void> {
    await this.db.updateTable('workspace_invites').set({ role_id: roleId, updated_at: nowIso() }).where('id', '=', id).execute();
  }

  async deleteInvite(id: string, db: Executor = this.db): Promise<void> {
    await db.deleteFrom('workspace_invites').where('id', '=', id).execute();
  }
}
