import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import type { AccessCache } from '../auth/access-cache.js';
import { mailSettings } from './mail.js';
import { SettingsService } from './service.js';
import { siteUrlFrom } from './site-url.js';

/** The site's settings, and the two values most modules read from them: the site's address and its mail server. */
export function createSettings(db: Kysely<Database>, appUrl: string, cache?: AccessCache) {
  const settings = new SettingsService(db, cache);
  return { settings, siteUrl: siteUrlFrom(settings, appUrl), mailSettings: mailSettings(settings) };
}
