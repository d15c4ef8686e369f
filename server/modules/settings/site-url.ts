import type { SettingsService } from './service.js';

/** The site's public address, without a trailing slash, as links in mails, share links and Stripe's return pages need it. */
export type SiteUrl = () => Promise<string>;

/**
 * The `site.url` setting when an admin set one, else the address the server
 * was started with (APP_URL). Read on each use, so a change in the admin
 * area applies to the next link without a restart.
 */
export function siteUrlFrom(settings: Pick<SettingsService, 'get'>, fallback: string): SiteUrl {
  return async () => resolveSiteUrl(await settings.get('site.url'), fallback);
}

/** The address from a `site.url` value already read (bootstrap keeps the settings it read once). */
export function resolveSiteUrl(value: unknown, fallback: string): string {
  const url = typeof value === 'string' && value.trim() !== '' ? value.trim() : fallback;
  return url.replace(/\/+$/, '');
}
