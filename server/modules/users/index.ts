import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { Unauthenticated } from '../../lib/errors.js';
import { API_PREFIX, moduleRoutes } from '../../lib/routes.js';
import type { Disk } from '../../storage/disk.js';
import { userActor } from '../access/actor.js';
import type { AdminUsersDeps } from '../admin/users/service.js';
import type { Auth } from '../auth/index.js';
import type { BootstrapService } from '../bootstrap/service.js';
import type { SpaceLimits } from '../drive/space-limits.js';
import type { LocalizationsService } from '../localizations/service.js';
import type { Permission } from '../permissions/policy.js';
import type { SettingsService } from '../settings/service.js';
import { AvatarStore } from './avatars.js';
import type { UsersRepository } from './repository.js';
import { usersRoutes } from './routes.js';
import { AccountService } from './service.js';

/** A user's site permissions; a user who is gone has none (space limits, share links ask this). */
export const permissionsLookup =
  (users: Pick<UsersRepository, 'findWithAccess'>) =>
  async (userId: number): Promise<Permission[]> =>
    (await users.findWithAccess(userId))?.permissions ?? [];

/**
 * A token's user's permissions (WebDAV), or null when the user is gone, so the token is refused. From the
 * access cache: a client's burst of requests reads them once.
 */
export const tokenUserPermissions =
  (users: Pick<UsersRepository, 'findWithAccess'>) =>
  async (userId: number): Promise<Permission[] | null> =>
    (await users.findWithAccess(userId))?.permissions ?? null;

/** The bootstrap data for a user's session by id (sign in as, back to the admin); null: the guest's. */
export const bootstrapById =
  (users: Pick<UsersRepository, 'findById' | 'withAccess'>, bootstrap: Pick<BootstrapService, 'build'>): AdminUsersDeps['bootstrapFor'] =>
  async (userId, language, impersonatorId) => {
    const user = userId === null ? undefined : await users.findById(userId);
    return bootstrap.build(user ? await users.withAccess(user) : null, language, impersonatorId);
  };

/** The admin proves it is them as for a change to their own account; an admin who is gone is signed out. */
export const confirmById =
  (users: Pick<UsersRepository, 'findById'>, account: Pick<AccountService, 'confirmAccountChange' | 'confirmSecondFactor'>): AdminUsersDeps['confirm'] =>
  async (userId, proof) => {
    const caller = await users.findById(userId);
    if (!caller) throw Unauthenticated();
    // An admin may offer their own second factor instead of the password where a route takes one (two-factor reset).
    if (proof.secondFactor && proof.via === 'session') return account.confirmSecondFactor(caller, proof);
    await account.confirmAccountChange(caller, proof);
  };

export interface UsersModuleDeps {
  db: Kysely<Database>;
  users: UsersRepository;
  settings: SettingsService;
  localizations: LocalizationsService;
  auth: Pick<Auth, 'sessions' | 'recovery' | 'auth' | 'twoFactor'>;
  avatarDisk: Disk;
  drive: {
    /** The drive's part of deleting an account: the user's entries, then their bytes. */
    facade: {
      deleteEntriesOf(trx: Kysely<Database>, userId: number): Promise<string[]>;
      purgeBytes(prefixes: string[]): Promise<void>;
    };
    spaceLimits: Pick<SpaceLimits, 'availableTo'>;
  };
  billing: { billing: { endSubscriptions(userId: number): Promise<void> } };
  bootstrap: { bootstrap: Pick<BootstrapService, 'build'> };
}

/** The account screen (profile, password, avatar, deletion) and what the admin's users section asks of accounts. */
export function createUsers(deps: UsersModuleDeps) {
  const { users, auth } = deps;
  const drive = deps.drive.facade;
  const avatars = new AvatarStore(deps.avatarDisk);
  const account = new AccountService(
    deps.db,
    deps.settings,
    deps.localizations,
    auth.sessions,
    auth.recovery,
    avatars,
    drive,
    auth.auth,
    auth.twoFactor,
    {},
    deps.billing.billing,
  );
  const forAdmin: AdminUsersDeps = {
    sessions: auth.sessions,
    startSession: auth.auth.startSession.bind(auth.auth),
    sendResetLink: (email) => auth.recovery.sendResetLink(email),
    permissionsOf: permissionsLookup(users),
    availableTo: (userId, permissions) => deps.drive.spaceLimits.availableTo(userActor(userId, permissions), userId),
    deleteEntriesOf: (trx, userId) => drive.deleteEntriesOf(trx, userId),
    purgeBytes: (prefixes) => drive.purgeBytes(prefixes),
    removeAvatar: (avatar) => avatars.remove(avatar),
    bootstrapFor: bootstrapById(users, deps.bootstrap.bootstrap),
    confirm: confirmById(users, account),
    twoFactor: auth.twoFactor,
  };
  return { avatars, account, forAdmin, routes: moduleRoutes(API_PREFIX, usersRoutes, { account, users, avatars }) };
}
