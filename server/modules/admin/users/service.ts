import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../../../db/types.js';
import { Conflict, NotFound, ValidationError } from '../../../lib/errors.js';
import { nowIso } from '../../../lib/time.js';
import { requireWithinOwnAccess } from '../../access/delegation.js';
import { hashPassword } from '../../auth/passwords.js';
import type { AuthService } from '../../auth/service.js';
import type { SessionsService } from '../../auth/sessions.js';
import type { TwoFactorService } from '../../auth/two-factor/service.js';
import type { Permission, Restriction } from '../../permissions/policy.js';
import { ADMIN_PERMISSION } from '../../permissions/policy.js';
import type { Bootstrap } from '../../bootstrap/service.js';
import { displayName } from '../../users/presenter.js';
import type { AccountProof } from '../../users/service.js';
import type { AdminActivity, AdminCaller } from '../activity/service.js';
import { adminGuard } from '../guard-rails.js';
import { pageOf } from '../paging.js';
import {
  countSitewideRoles,
  defaultRoleIds,
  deleteUser,
  directPermissions,
  emailTaken,
  insertUser,
  markVerified,
  permissionIds,
  permissionNames,
  rolePermissionNames,
  replaceAccess,
  rolesOf,
  setSuspended,
  updateUser,
  userById,
  usersByIds,
} from '../../users/accounts.repository.js';
import { AdminUsersRepository, type UserListQuery } from './repository.js';

export const USER_NOT_FOUND = 'This user does not exist.';
export const EMAIL_TAKEN = 'The email has already been taken.';
export const NOT_YOURSELF = 'You cannot do this to your own account.';

export interface UserAccessInput {
  roles?: number[] | undefined;
  permissions?: { name: string; restrictions?: Restriction[] | undefined }[] | undefined;
  /** Storage space in bytes for this user alone; null: the role's or the site default. */
  space?: number | null | undefined;
}

export interface CreateUserInput extends UserAccessInput {
  email: string;
  password: string;
  first_name?: string | null | undefined;
  last_name?: string | null | undefined;
  verified?: boolean | undefined;
}

export interface UpdateUserInput extends UserAccessInput {
  email?: string | undefined;
  first_name?: string | null | undefined;
  last_name?: string | null | undefined;
  password?: string | undefined;
}

export interface AdminUsersDeps {
  sessions: Pick<SessionsService, 'endAll'>;
  /** Where every session starts (it refuses a suspended account). */
  startSession: AuthService['startSession'];
  sendResetLink(email: string): Promise<void>;
  /** A user's available space (their max_space restriction, else the site default); null: unlimited. */
  availableTo(userId: number, permissions: Permission[]): Promise<number | null>;
  permissionsOf(userId: number): Promise<Permission[]>;
  /** Account deletion as the account screen does it: entries in the transaction, bytes after it commits. */
  deleteEntriesOf(trx: Kysely<Database>, userId: number): Promise<string[]>;
  purgeBytes(prefixes: string[]): Promise<void>;
  removeAvatar(avatar: string | null): Promise<void>;
  /** The bootstrap data for a user's session (what the app replaces its own with). */
  bootstrapFor(userId: number | null, language: string | null, impersonatorId: number | null): Promise<Bootstrap>;
  /**
   * The caller proves it is them, as for a change to their own account (AccountService.confirmAccountChange);
   * a second factor of the caller's own does too where the route takes one.
   */
  confirm(callerId: number, proof: AccountProof): Promise<void>;
  /** Second factors (issue 36): who has one, and the reset of a user who lost them all. */
  twoFactor: Pick<TwoFactorService, 'withSecondFactor' | 'removeAll' | 'enabled'>;
}

/** The admin's users section: the table, and every change to an account an admin makes. */
export class AdminUsersService {
  private readonly repo: AdminUsersRepository;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly activity: AdminActivity,
    private readonly deps: AdminUsersDeps,
  ) {
    this.repo = new AdminUsersRepository(db);
  }

  async list(query: UserListQuery) {
    const { rows, total } = await this.repo.page(query);
    const ids = rows.map((r) => r.id);
    const roles = await rolesOf(this.db, ids);
    const withSecondFactor = await this.deps.twoFactor.withSecondFactor(ids);
    const data = await Promise.all(
      rows.map(async (row) => ({
        ...row,
        display_name: displayName(row),
        roles: roles.get(row.id) ?? [],
        two_factor: withSecondFactor.has(row.id),
        space_available: await this.deps.availableTo(row.id, await this.deps.permissionsOf(row.id)),
      })),
    );
    return pageOf(data, query, total);
  }

  async get(id: number) {
    const user = await this.find(id);
    const roles = (await rolesOf(this.db, [id])).get(id) ?? [];
    const permissions = await directPermissions(this.db, id);
    const space = permissions.find((p) => p.name === 'files.create')?.restrictions.find((r) => r.name === 'max_space')?.value;
    return {
      id: user.id,
      email: user.email,
      first_name: user.first_name,
      last_name: user.last_name,
      display_name: displayName(user),
      avatar: user.avatar,
      email_verified_at: user.email_verified_at,
      suspended_at: user.suspended_at,
      created_at: user.created_at,
      roles,
      permissions,
      two_factor: (await this.deps.twoFactor.withSecondFactor([id])).has(id),
      space: typeof space === 'number' ? space : null,
      space_available: await this.deps.availableTo(id, await this.deps.permissionsOf(id)),
    };
  }

  async create(caller: AdminCaller, input: CreateUserInput, proof: AccountProof) {
    const email = input.email.trim().toLowerCase();
    if (await emailTaken(this.db, email)) throw ValidationError.field('email', EMAIL_TAKEN);
    // The default roles given when none are chosen are what registration gives anyone: no grant of the caller's.
    const granted = await this.granted(input);
    requireWithinOwnAccess(await permissionNames(this.db, caller.userId), granted, 'grant');
    if (granted.has(ADMIN_PERMISSION)) await this.deps.confirm(caller.userId, proof);
    const now = nowIso();
    const password = await hashPassword(input.password);
    const id = await this.db.transaction().execute(async (trx) => {
      const row = await insertUser(trx, {
        email,
        password,
        first_name: input.first_name || null,
        last_name: input.last_name || null,
        email_verified_at: input.verified === false ? null : now,
        created_at: now,
        updated_at: now,
      });
      const roles = input.roles ?? (await defaultRoleIds(trx));
      await this.applyAccess(trx, row.id, { ...input, roles }, now);
      await this.activity.record(caller, { action: 'user.created', subjectType: 'user', subjectId: row.id, subjectLabel: email, details: { roles } }, trx);
      return row.id;
    });
    return this.get(id);
  }

  async update(caller: AdminCaller, id: number, input: UpdateUserInput, proof: AccountProof) {
    const user = await this.find(id);
    const email = input.email?.trim().toLowerCase();
    const callerHolds = await permissionNames(this.db, caller.userId);
    const held = await permissionNames(this.db, id);
    requireWithinOwnAccess(callerHolds, held, 'account');
    const granted = await this.granted(input);
    requireWithinOwnAccess(callerHolds, granted, 'grant');
    if (email && email !== user.email) {
      if (await emailTaken(this.db, email)) throw ValidationError.field('email', EMAIL_TAKEN);
    }
    // Whoever sets the password or the sign-in email can sign in as that account; `admin` opens everything.
    const takesOver = Boolean(input.password) || (email !== undefined && email !== user.email);
    if (takesOver || (granted.has(ADMIN_PERMISSION) && !held.has(ADMIN_PERMISSION))) await this.deps.confirm(caller.userId, proof);
    const now = nowIso();
    const keepAdmins = await adminGuard(this.db, caller.userId);
    await this.db.transaction().execute(async (trx) => {
      const changes: Partial<UserRow> = { updated_at: now };
      if (email) changes.email = email;
      if (input.first_name !== undefined) changes.first_name = input.first_name || null;
      if (input.last_name !== undefined) changes.last_name = input.last_name || null;
      if (input.password) changes.password = await hashPassword(input.password);
      await updateUser(trx, id, changes);
      await this.applyAccess(trx, id, input, now);
      await keepAdmins(trx);
      const changed = Object.keys(input).filter((key) => key !== 'password' && input[key as keyof UpdateUserInput] !== undefined);
      if (input.password) changed.push('password');
      await this.activity.record(
        caller,
        { action: 'user.updated', subjectType: 'user', subjectId: id, subjectLabel: email ?? user.email, details: { changed } },
        trx,
      );
    });
    // A new password (or an email change) ends the sessions that knew the old one.
    if (input.password || (email && email !== user.email)) await this.deps.sessions.endAll(id);
    return this.get(id);
  }

  /** Suspended: no sign-in, and every session and access token stops at once. */
  async suspend(caller: AdminCaller, ids: number[], suspended: boolean): Promise<void> {
    if (suspended && ids.includes(caller.userId)) throw Conflict(NOT_YOURSELF);
    const users = await this.findMany(ids);
    await this.requireReach(caller, ids);
    const now = nowIso();
    const keepAdmins = await adminGuard(this.db, caller.userId);
    await this.db.transaction().execute(async (trx) => {
      await setSuspended(trx, ids, suspended, now);
      if (suspended) await keepAdmins(trx);
      for (const user of users) {
        await this.activity.record(
          caller,
          { action: suspended ? 'user.suspended' : 'user.unsuspended', subjectType: 'user', subjectId: user.id, subjectLabel: user.email },
          trx,
        );
      }
    });
    if (suspended) for (const id of ids) await this.deps.sessions.endAll(id);
  }

  async verify(caller: AdminCaller, ids: number[]): Promise<void> {
    const users = await this.findMany(ids);
    await this.requireReach(caller, ids);
    const now = nowIso();
    await this.db.transaction().execute(async (trx) => {
      await markVerified(trx, ids, now);
      for (const user of users)
        await this.activity.record(caller, { action: 'user.verified', subjectType: 'user', subjectId: user.id, subjectLabel: user.email }, trx);
    });
  }

  async sendPasswordReset(caller: AdminCaller, id: number): Promise<void> {
    const user = await this.find(id);
    await this.deps.sendResetLink(user.email);
    await this.activity.record(caller, { action: 'user.password_reset_sent', subjectType: 'user', subjectId: id, subjectLabel: user.email });
  }

  /** Deletes accounts as account deletion does: rows in one transaction, then the files' bytes. */
  async delete(caller: AdminCaller, ids: number[], proof: AccountProof): Promise<void> {
    if (ids.includes(caller.userId)) throw Conflict(NOT_YOURSELF);
    const users = await this.findMany(ids);
    await this.requireReach(caller, ids);
    await this.deps.confirm(caller.userId, proof);
    const keepAdmins = await adminGuard(this.db, caller.userId);
    const prefixes = await this.db.transaction().execute(async (trx) => {
      const owned: string[] = [];
      for (const user of users) {
        owned.push(...(await this.deps.deleteEntriesOf(trx, user.id)));
        await deleteUser(trx, user.id);
        await this.activity.record(caller, { action: 'user.deleted', subjectType: 'user', subjectId: user.id, subjectLabel: user.email }, trx);
      }
      await keepAdmins(trx);
      return owned;
    });
    await this.deps.purgeBytes(prefixes);
    for (const user of users) await this.deps.removeAvatar(user.avatar);
  }

  /**
   * "Sign in as": a session for the user, marked with the admin who started
   * it (shown on every screen, ended with one click). Only an account within
   * the caller's own permissions, and only with the caller's fresh proof.
   */
  async impersonate(caller: AdminCaller, id: number, meta: { userAgent: string | null; language: string | null }, proof: AccountProof) {
    if (id === caller.userId) throw Conflict(NOT_YOURSELF);
    const user = await this.find(id);
    await this.requireReach(caller, [id]);
    await this.deps.confirm(caller.userId, proof);
    // The session start refuses a suspended account, as for every other way in.
    const { session } = await this.deps.startSession(
      { kind: 'impersonation', userId: id, impersonatorId: caller.userId },
      { ip: caller.ip, userAgent: meta.userAgent },
    );
    await this.activity.record(caller, { action: 'user.impersonated', subjectType: 'user', subjectId: id, subjectLabel: user.email });
    return { token: session.token, bootstrapData: await this.deps.bootstrapFor(id, meta.language, caller.userId) };
  }

  /**
   * Two-factor reset for a user who lost every second factor (issue 36): the
   * authenticator app, recovery codes, passkeys and remembered devices go, and
   * the user signs in with the password alone until they set one up again (at
   * once, if a role requires it). Only within the caller's own permissions,
   * with the caller's fresh proof (password or own second factor), recorded.
   * The user's sessions end: whoever holds one now may be who took the phone.
   */
  async resetTwoFactor(caller: AdminCaller, id: number, proof: AccountProof): Promise<void> {
    if (id === caller.userId) throw Conflict(NOT_YOURSELF);
    const user = await this.find(id);
    await this.requireReach(caller, [id]);
    await this.deps.confirm(caller.userId, proof);
    const had = (await this.deps.twoFactor.withSecondFactor([id])).has(id);
    await this.deps.twoFactor.removeAll(id);
    await this.deps.sessions.endAll(id);
    await this.activity.record(caller, {
      action: 'user.two_factor_reset',
      subjectType: 'user',
      subjectId: id,
      subjectLabel: user.email,
      details: { had_second_factor: had },
    });
  }

  /** What an account change hands out: the chosen roles' permissions and the direct ones (a space override is `files.create`). */
  private async granted(input: UserAccessInput): Promise<Set<string>> {
    const names = await rolePermissionNames(this.db, input.roles ?? []);
    for (const grant of input.permissions ?? []) names.add(grant.name);
    if (input.space !== undefined && input.space !== null) names.add('files.create');
    return names;
  }

  /** Nobody changes an account that holds more than they do (issue 30 finding 5). */
  private async requireReach(caller: AdminCaller, ids: number[]): Promise<void> {
    const callerHolds = await permissionNames(this.db, caller.userId);
    for (const id of ids) requireWithinOwnAccess(callerHolds, await permissionNames(this.db, id), 'account');
  }

  private async applyAccess(trx: Kysely<Database>, userId: number, input: UserAccessInput, now: string): Promise<void> {
    if (input.roles) {
      if ((await countSitewideRoles(trx, [...new Set(input.roles)])) !== new Set(input.roles).size)
        throw ValidationError.field('roles', 'One of the selected roles does not exist.');
    }
    let permissions = input.permissions?.map((p) => ({ name: p.name, restrictions: p.restrictions ?? [] }));
    if (input.space !== undefined) {
      // The space override is the files.create max_space restriction on the user (what SpaceLimits reads).
      permissions ??= await directPermissions(trx, userId);
      permissions = permissions.filter((p) => p.name !== 'files.create');
      if (input.space !== null) permissions.push({ name: 'files.create', restrictions: [{ name: 'max_space', value: input.space }] });
    }
    if (permissions) {
      const known = await permissionIds(
        trx,
        permissions.map((p) => p.name),
      );
      const unknown = permissions.find((p) => !known.has(p.name));
      if (unknown) throw ValidationError.field('permissions', 'Unknown permission :name.', { name: unknown.name });
    }
    await replaceAccess(trx, userId, { roleIds: input.roles, permissions }, now);
  }

  private async find(id: number): Promise<UserRow> {
    const user = await userById(this.db, id);
    if (!user) throw NotFound(USER_NOT_FOUND);
    return user;
  }

  private async findMany(ids: number[]): Promise<UserRow[]> {
    const users = await usersByIds(this.db, ids);
    if (users.length !== new Set(ids).size) throw NotFound(USER_NOT_FOUND);
    return users;
  }
}
