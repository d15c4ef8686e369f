import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { moduleRoutes } from '../../lib/routes.js';
import type { DavAuthDeps } from './auth.js';
import { WebDavRepository } from './repository.js';
import type { WebDavDeps } from './request.js';
import { webdavRoutes } from './routes.js';
import { WebDavService } from './service.js';

export interface WebDavModuleDeps extends Omit<WebDavDeps, 'repo'>, Omit<DavAuthDeps, 'proven'> {
  db: Kysely<Database>;
}

/** The drive over WebDAV (`/dav`), signed in with personal access tokens. */
export function createWebDav({ db, accessTokens, permissionsOf, rateLimiter, ...deps }: WebDavModuleDeps) {
  const webdav = new WebDavService({ ...deps, repo: new WebDavRepository(db) });
  // Mounted at the root: DAV_PREFIX is part of every path the service answers.
  return { webdav, routes: moduleRoutes('', webdavRoutes, { webdav, accessTokens, permissionsOf, rateLimiter }) };
}
