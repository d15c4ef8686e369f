import type { Kysely } from 'kysely';
import type { Database } from '../../../db/types.js';
import type { SettingsService } from '../../settings/service.js';
import { siteUrlFrom } from '../../settings/site-url.js';
import { PasskeysService } from './passkeys.js';

/** Passkeys belong to the site's address: its host is the relying party id, its origin the one browsers report. */
export function createPasskeys(db: Kysely<Database>, settings: Pick<SettingsService, 'get'>, appUrl: string, siteName: () => Promise<string>) {
  const siteUrl = siteUrlFrom(settings, appUrl);
  return new PasskeysService(db, async () => {
    const url = new URL(await siteUrl());
    return { id: url.hostname, origin: url.origin, name: await siteName() };
  });
}
