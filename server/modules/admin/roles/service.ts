import type { Kysely } from 'kysely';
import type { Database } from '../../../db/types.js';
import { Conflict, NotFound, ValidationError } from '../../../lib/errors.js';
import { parseJson } from '../../../lib/json.js';
import { nowIso } from '../../../lib/time.js';
import { requireWithinOwnAccess } from '../../access/delegation.js';
import { ADMIN_PERMISSION, type Restriction } from '../../permissions/policy.js';
import type { AccountProof } from '../../users/service.js';
import type { AdminActivity, AdminCaller } from '../activity/service.js';
import { adminGuard } from '../guard-rails.js';
import { permissionIds, permissionNames, rolesOf } from '../../users/accounts.repository.js';
import {
  allRoles,
  deleteRole,
  insertRole,
  makeSole,
  permissionCatalogue,
  replaceRolePermissions,
  roleGrants,
  roleHolderCounts,
  roleNameTaken,
  updateRole,
} from '../../users/roles.repository.js';
import { letGoOfRole } from '../../workspaces/repository.js';

export const ROLE_NOT_FOUND = 'This role does not exist.';
export const ROLE_NAME_TAKEN = 'A role with this name already exists.';
export const ROLE_IN_USE_DEFAULT = 'Choose another default role before deleting this one.';
export const ROLE_IN_USE_GUESTS = 'The guest role cannot be deleted.';

export const OWN_ROLE_TWO_FACTOR = 'Set up two-factor sign-in for your own account before requiring it for a role you hold.';

export interface RoleInput {
  name: string;
  description?: string | null | undefined;
  type: 'sitewide' | 'workspace';
  default?: boolean | undefined;
  guests?: boolean | undefined;
  require_two_factor?: boolean | undefined;
  permissions: { name: string; restrictions?: Restriction[] | undefined }[];
}

/** Roles and their permissions (spec §6), the guest role and the default role given at registration. */
export class AdminRolesService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly activity: AdminActivity,
    /** The caller proves it is them before a role carries `admin` (issue 30 finding 8). */
    private readonly confirm: (callerId: number, proof: AccountProof) => Promise<void>,
    /** Whether a user has a second factor: nobody requires one of themselves without having it. */
    private readonly twoFactor: { enabled(userId: number): Promise<boolean> },
  ) {}

  async permissions() {
    const rows = await permissionCatalogue(this.db);
    return rows.map((row) => ({
      name: row.name,
      group: row.group,
      display_name: row.display_name,
      description: row.description,
      restrictions: parseJson<{ name: string; type: 'number' | 'bool'; description: string }[]>(row.restrictions, []),
    }));
  }

  async list() {
    const roles = await allRoles(this.db);
    const grants = await roleGrants(this.db);
    const countOf = await roleHolderCounts(this.db);
    return roles.map((role) => ({
      id: role.id,
      name: role.name,
      description: role.description,
      type: role.type === 'workspace' ? ('workspace' as const) : ('sitewide' as const),
      guests: role.guests === 1,
      default: role.default === 1,
      require_two_factor: role.require_two_factor === 1,
      users_count: countOf.get(role.id) ?? 0,
      permissions: grants.filter((g) => g.role_id === role.id).map((g) => ({ name: g.name, restrictions: parseJson<Restriction[]>(g.restrictions, []) })),
    }));
  }

  async get(id: number) {
    const role = (await this.list()).find((r) => r.id === id);
    if (!role) throw NotFound(ROLE_NOT_FOUND);
    return role;
  }

  async create(caller: AdminCaller, input: RoleInput, proof: AccountProof) {
    await this.requireGrantable(caller, input, new Set(), proof);
    const id = await this.db.transaction().execute(async (trx) => {
      await this.assertNameFree(trx, input.name, null);
      const now = nowIso();
      const roleId = await insertRole(trx, {
        name: input.name,
        description: input.description ?? null,
        type: input.type,
        default: 0,
        guests: 0,
        require_two_factor: input.require_two_factor && input.type === 'sitewide' ? 1 : 0,
        created_at: now,
        updated_at: now,
      });
      await this.write(trx, roleId, input);
      await this.activity.record(
        caller,
        {
          action: 'role.created',
          subjectType: 'role',
          subjectId: roleId,
          subjectLabel: input.name,
          details: { permissions: input.permissions.map((p) => p.name) },
        },
        trx,
      );
      return roleId;
    });
    return this.get(id);
  }

  async update(caller: AdminCaller, id: number, input: RoleInput, proof: AccountProof) {
    const existing = await this.get(id);
    await this.requireGrantable(caller, input, new Set(existing.permissions.map((p) => p.name)), proof);
    const requireTwoFactor = input.type === 'sitewide' ? (input.require_two_factor ?? existing.require_two_factor) : false;
    if (requireTwoFactor && !existing.require_two_factor) await this.requireOwnSecondFactor(caller, id);
    const keepAdmins = await adminGuard(this.db, caller.userId);
    await this.db.transaction().execute(async (trx) => {
      await this.assertNameFree(trx, input.name, id);
      await updateRole(trx, id, {
        name: input.name,
        description: input.description ?? null,
        type: input.type,
        require_two_factor: requireTwoFactor ? 1 : 0,
        updated_at: nowIso(),
      });
      await this.write(trx, id, input);
      // Nobody edits away their own admin access, or the last admin's.
      await keepAdmins(trx);
      await this.activity.record(
        caller,
        {
          action: 'role.updated',
          subjectType: 'role',
          subjectId: id,
          subjectLabel: input.name,
          details: {
            before: existing.permissions.map((p) => p.name),
            after: input.permissions.map((p) => p.name),
            ...(requireTwoFactor !== existing.require_two_factor ? { require_two_factor: requireTwoFactor } : {}),
          },
        },
        trx,
      );
    });
    return this.get(id);
  }

  async delete(caller: AdminCaller, id: number): Promise<void> {
    const role = await this.get(id);
    requireWithinOwnAccess(
      await permissionNames(this.db, caller.userId),
      role.permissions.map((p) => p.name),
      'role',
    );
    if (role.guests) throw Conflict(ROLE_IN_USE_GUESTS);
    if (role.default) throw Conflict(ROLE_IN_USE_DEFAULT);
    const keepAdmins = await adminGuard(this.db, caller.userId);
    await this.db.transaction().execute(async (trx) => {
      await letGoOfRole(trx, id);
      await deleteRole(trx, id);
      await keepAdmins(trx);
      await this.activity.record(caller, { action: 'role.deleted', subjectType: 'role', subjectId: id, subjectLabel: role.name }, trx);
    });
  }

  /**
   * A role is edited only within the caller's own permissions, before and
   * after (issue 30 finding 5); one that starts carrying `admin` needs the
   * caller's fresh proof.
   */
  private async requireGrantable(caller: AdminCaller, input: RoleInput, before: ReadonlySet<string>, proof: AccountProof): Promise<void> {
    const callerHolds = await permissionNames(this.db, caller.userId);
    requireWithinOwnAccess(callerHolds, before, 'role');
    const after = input.permissions.map((p) => p.name);
    requireWithinOwnAccess(callerHolds, after, 'grant');
    if (after.includes(ADMIN_PERMISSION) && !before.has(ADMIN_PERMISSION)) await this.confirm(caller.userId, proof);
  }

  /** Requiring two-factor sign-in of a role the caller holds would shut the caller out mid-session until they set it up. */
  private async requireOwnSecondFactor(caller: AdminCaller, roleId: number): Promise<void> {
    const held = (await rolesOf(this.db, [caller.userId])).get(caller.userId) ?? [];
    if (held.some((role) => role.id === roleId) && !(await this.twoFactor.enabled(caller.userId))) throw Conflict(OWN_ROLE_TWO_FACTOR);
  }

  private async write(trx: Kysely<Database>, roleId: number, input: RoleInput): Promise<void> {
    const ids = await permissionIds(
      trx,
      input.permissions.map((p) => p.name),
    );
    const unknown = input.permissions.find((p) => !ids.has(p.name));
    if (unknown) throw ValidationError.field('permissions', 'Unknown permission :name.', { name: unknown.name });
    const grants = [...new Map(input.permissions.map((p) => [p.name, { name: p.name, restrictions: p.restrictions ?? [] }])).values()];
    await replaceRolePermissions(trx, roleId, grants, ids);
    // One default role for registrations and one guest role; choosing one moves the flag.
    if (input.default && input.type === 'sitewide') await makeSole(trx, 'default', roleId);
    if (input.guests && input.type === 'sitewide') await makeSole(trx, 'guests', roleId);
  }

  private async assertNameFree(trx: Kysely<Database>, name: string, id: number | null): Promise<void> {
    if (await roleNameTaken(trx, name, id)) throw ValidationError.field('name', ROLE_NAME_TAKEN);
  }
}
