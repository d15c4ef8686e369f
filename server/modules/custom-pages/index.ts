import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { API_PREFIX, moduleRoutes } from '../../lib/routes.js';
import type { SettingsService } from '../settings/service.js';
import { CustomPagesRepository } from './repository.js';
import { customPageRoutes } from './routes.js';
import { CustomPagesService } from './service.js';

/** The site a page's head tags name: the branding's site name (empty when unset) and APP_URL. */
export function pageSite(settings: Pick<SettingsService, 'get'>, appUrl: string) {
  return async (): Promise<{ name: string; url: string }> => {
    const name = await settings.get('branding.site_name');
    return { name: typeof name === 'string' ? name : '', url: appUrl };
  };
}

/** Custom pages as visitors read them; the admin area writes them through `repo`. */
export function createCustomPages(db: Kysely<Database>, settings: Pick<SettingsService, 'get'>, appUrl: string) {
  const repo = new CustomPagesRepository(db);
  const customPages = new CustomPagesService(repo, pageSite(settings, appUrl));
  return { repo, customPages, routes: moduleRoutes(API_PREFIX, customPageRoutes, { customPages }) };
}
