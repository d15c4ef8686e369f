import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { API_PREFIX, moduleRoutes } from '../../lib/routes.js';
import type { Disk } from '../../storage/disk.js';
import type { SettingsService } from '../settings/service.js';
import { ThemesService } from '../themes/service.js';
import { BrandingFiles } from './branding-files.js';
import { brandingRoutes } from './routes.js';
import { AppearanceService } from './service.js';

/** Themes, the appearance settings and the uploaded logos, served at /branding. */
export function createAppearance(db: Kysely<Database>, settings: SettingsService, disk: Disk) {
  const themes = new ThemesService(db);
  const brandingFiles = new BrandingFiles(db, disk);
  return {
    themes,
    appearance: new AppearanceService(settings, themes),
    brandingFiles,
    routes: moduleRoutes(API_PREFIX, brandingRoutes, { brandingFiles }),
  };
}
