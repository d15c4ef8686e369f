import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import type { RateLimiter } from '../../lib/rate-limiter.js';
import { moduleRoutes } from '../../lib/routes.js';
import type { Drive } from '../drive/index.js';
import type { UploadsService } from '../uploads/service.js';
import { tokenUserPermissions } from '../users/index.js';
import type { UsersRepository } from '../users/repository.js';
import type { WorkspacesService } from '../workspaces/service.js';
import type { DavAuthDeps } from './auth.js';
import { WebDavRepository } from './repository.js';
import { webdavRoutes } from './routes.js';
import { WebDavService } from './service.js';

export interface WebDavModuleDeps {
  db: Kysely<Database>;
  drive: Pick<Drive, 'facade' | 'scope'>;
  uploads: Pick<UploadsService, 'storeWhole'>;
  workspaces: Pick<WorkspacesService, 'list'>;
  users: Pick<UsersRepository, 'findWithAccess'>;
  accessTokens: DavAuthDeps['accessTokens'];
  rateLimiter: RateLimiter;
  /** The site's public address: a COPY or MOVE to any other server is refused. */
  siteUrl(): Promise<string>;
}

/** The drive over WebDAV (`/dav`), signed in with personal access tokens. */
export function createWebDav({ db, drive, uploads, workspaces, users, accessTokens, rateLimiter, siteUrl }: WebDavModuleDeps) {
  const webdav = new WebDavService({
    drive: drive.facade,
    uploads,
    scope: drive.scope,
    workspaces: (actor) => workspaces.list(actor),
    repo: new WebDavRepository(db),
    siteUrl,
  });
  // A token whose user is gone is refused (tokenUserPermissions answers null).
  const permissionsOf = tokenUserPermissions(users);
  // Mounted at the root: DAV_PREFIX is part of every path the service answers.
  return { webdav, routes: moduleRoutes('', webdavRoutes, { webdav, accessTokens, permissionsOf, rateLimiter }) };
}
