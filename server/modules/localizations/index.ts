import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { API_PREFIX, moduleRoutes } from '../../lib/routes.js';
import type { SettingsService } from '../settings/service.js';
import { localizationRoutes } from './routes.js';
import { LocalizationsService } from './service.js';

/** The interface languages, their lines, and the value lists (countries, timezones). */
export function createLocalizations(
  db: Kysely<Database>,
  settings: SettingsService,
  /** Texts an admin writes elsewhere (plan names, descriptions, features) that are translated like lines. */
  contentTexts?: () => Promise<string[]>,
) {
  const localizations = new LocalizationsService(db, settings, contentTexts);
  return { localizations, routes: moduleRoutes(API_PREFIX, localizationRoutes, { localizations }) };
}
