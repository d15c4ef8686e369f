import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { API_PREFIX, moduleRoutes } from '../../lib/routes.js';
import type { PasswordChecks } from '../auth/password-checks.js';
import { hashPassword, verifyPassword } from '../auth/passwords.js';
import type { ActivityRecorder } from '../activity/recorder.js';
import type { Drive } from '../drive/index.js';
import type { Notifier } from '../notifications/notifier.js';
import { linkReceipt } from './receipts.js';
import { presentByIds } from '../drive/present.js';
import type { Permission } from '../permissions/policy.js';
import type { SettingsService } from '../settings/service.js';
import type { UploadsService } from '../uploads/service.js';
import { displayName } from '../users/presenter.js';
import type { UsersRepository } from '../users/repository.js';
import { ShareLinksRepository } from './repository.js';
import { shareLinkRoutes } from './routes.js';
import { ShareLinksService } from './service.js';
import { shareLinkVisitorRoutes } from './visitor-routes.js';
import { ShareLinkVisitors, type VisitorDeps } from './visitor.js';

export interface ShareLinksModuleDeps {
  db: Kysely<Database>;
  settings: Pick<SettingsService, 'appKey'>;
  users: Pick<UsersRepository, 'findById'>;
  permissionsOf(userId: number): Promise<Permission[]>;
  passwordChecks: Pick<PasswordChecks, 'check'>;
  drive: Pick<Drive, 'scope' | 'listing' | 'files' | 'thumbnails'>;
  uploads: Pick<UploadsService, 'storePlain'>;
  appUrl(): Promise<string>;
  activity: ActivityRecorder;
  notifier: Pick<Notifier, 'notify'>;
}

/**
 * What a visitor's calls may do, as the drive's own calls under the link's actor: the link decides nothing about
 * files itself, so a listing, a download or a preview through a link follows the drive's rules.
 */
export function visitorDeps(deps: ShareLinksModuleDeps): VisitorDeps {
  const { drive } = deps;
  return {
    appKey: () => deps.settings.appKey(),
    permissionsOf: deps.permissionsOf,
    ownerName: async (userId) => {
      const user = await deps.users.findById(userId);
      return user ? displayName(user) : null;
    },
    checkPassword: (limits, compare) => deps.passwordChecks.check(limits, compare),
    verifyPassword,
    scope: (actor) => drive.scope(actor, null),
    list: (actor, scope, query) => drive.listing.list(actor, scope, query),
    present: (actor, ids) => presentByIds(deps.db, actor, ids),
    download: (actor, hashes, onError) => drive.files.download(actor, hashes, onError),
    openable: (actor, hash) => drive.files.openable(actor, hash),
    preview: (actor, hash) => drive.files.preview(actor, hash),
    activity: deps.activity,
    receipt: (notice) => linkReceipt(deps.notifier, notice),
  };
}

/** Share links: their owners' calls, and the visitors' (each opening the link afresh). */
export function createShareLinks(deps: ShareLinksModuleDeps) {
  const repo = new ShareLinksRepository(deps.db);
  const shareLinks = new ShareLinksService(deps.db, repo, { hashPassword, appUrl: deps.appUrl, activity: deps.activity });
  const shareLinkVisitors = new ShareLinkVisitors(deps.db, repo, visitorDeps(deps));
  return {
    shareLinks,
    shareLinkVisitors,
    routes: [
      moduleRoutes(API_PREFIX, shareLinkRoutes, { shareLinks }),
      moduleRoutes(API_PREFIX, shareLinkVisitorRoutes, { shareLinkVisitors, drive: deps.drive, uploads: deps.uploads }),
    ],
  };
}
