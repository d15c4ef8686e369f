import type { Kysely } from 'kysely';
import type { Db } from '../../db/index.js';
import type { Database } from '../../db/types.js';
import { consume, type RateLimiter } from '../../lib/rate-limiter.js';
import { API_PREFIX, moduleRoutes } from '../../lib/routes.js';
import type { MailMessage } from '../../mail/mailer.js';
import type { Notifier } from '../notifications/notifier.js';
import type { UsersRepository } from '../users/repository.js';
import { workspaceInvitation } from './invitation-notification.js';
import { WorkspacesRepository } from './repository.js';
import { workspaceRoutes } from './routes.js';
import { WorkspacesService } from './service.js';

const HOUR_MS = 60 * 60 * 1000;
/** Invite mails a user may send in an hour: generous for teams, useless for spam. */
export const INVITES_PER_HOUR = 100;

export interface WorkspacesModuleDeps {
  db: Db;
  users: Pick<UsersRepository, 'findById' | 'findByEmail'>;
  notifier: Notifier;
  rateLimiter: RateLimiter;
  sendMail(message: MailMessage): Promise<void>;
  siteName(): Promise<string>;
  appUrl(): Promise<string>;
  /** Moves a workspace's entries to the trash (the drive's facade); answers how many. */
  trashWorkspace(trx: Kysely<Database>, workspaceId: number): Promise<number>;
}

/**
 * Deleting a workspace for good (the admin area): its entries go to the trash first, in the same transaction,
 * because the database refuses to drop a workspace that entries still point to.
 */
export const workspaceDeletion =
  (trashWorkspace: WorkspacesModuleDeps['trashWorkspace'], repo: Pick<WorkspacesRepository, 'delete'>) =>
  async (trx: Kysely<Database>, workspaceId: number): Promise<void> => {
    await trashWorkspace(trx, workspaceId);
    await repo.delete(trx, workspaceId);
  };

/** Workspaces, their members and invites. */
export function createWorkspaces(deps: WorkspacesModuleDeps) {
  const repo = new WorkspacesRepository(deps.db.kysely);
  const workspaces = new WorkspacesService(deps.db.kysely, deps.db.dialect, repo, {
    findUser: (id) => deps.users.findById(id),
    findUserIdByEmail: async (email) => (await deps.users.findByEmail(email))?.id,
    sendMail: deps.sendMail,
    siteName: deps.siteName,
    appUrl: deps.appUrl,
    trashWorkspace: deps.trashWorkspace,
    notifyInvited: (invite) => workspaceInvitation(deps.notifier, invite),
    countInvites: (userId, emails) => consume(deps.rateLimiter, { key: `invites:${userId}`, max: INVITES_PER_HOUR, windowMs: HOUR_MS }, emails),
  });
  return {
    repo,
    workspaces,
    deleteWorkspace: workspaceDeletion(deps.trashWorkspace, repo),
    routes: moduleRoutes(API_PREFIX, workspaceRoutes, { workspaces }),
  };
}
