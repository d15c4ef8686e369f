import type { FastifyRequest } from 'fastify';
import type { Lines } from '../lib/i18n.js';
import { LOCALE_COOKIE } from '../modules/localizations/locale-cookie.js';
import type { LocalizationsService } from '../modules/localizations/service.js';
import type { SettingsService } from '../modules/settings/service.js';

/** Where a caller's lines are looked up (app.ts decorates the app with it): the catalogues and the site default. */
export interface LinesSource {
  localizations: Pick<LocalizationsService, 'resolve' | 'lines'>;
  settings: Pick<SettingsService, 'get'>;
}

/**
 * The caller's lines: the user's language, else the visitor's cookie, else the
 * site default. An error answer must never fail for want of a translation.
 */
export async function linesFor(request: FastifyRequest): Promise<Lines | null> {
  try {
    const { localizations, settings } = request.server.linesSource;
    const fallback = await settings.get('i18n.default_localization');
    const found = await localizations.resolve([request.user?.language, request.cookies?.[LOCALE_COOKIE], typeof fallback === 'string' ? fallback : null]);
    return found ? await localizations.lines(found.id) : null;
  } catch {
    return null;
  }
}
