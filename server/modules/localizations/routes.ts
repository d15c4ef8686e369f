import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ValidationError } from '../../lib/errors.js';
import { LOCALE_COOKIE } from './locale-cookie.js';
import type { LocalizationsService } from './service.js';
import { changeLocaleBody, changeLocaleResponse, valueListsParams, valueListsResponse } from './schemas.js';
import { countries, timezones } from './value-lists.js';

const YEAR_SECONDS = 365 * 24 * 60 * 60;

export const localizationRoutes: FastifyPluginAsyncZod<{ localizations: LocalizationsService }> = async (app, { localizations }) => {
  app.post(
    '/users/me/locale',
    {
      schema: {
        tags: ['localizations'],
        summary: 'Change the interface language (guests too: kept in a cookie)',
        body: changeLocaleBody,
        response: { 200: changeLocaleResponse },
      },
    },
    async (request, reply) => {
      const localization = await localizations.find(request.body.locale);
      if (!localization) throw ValidationError.field('locale', 'This language is not available.');
      if (request.user) await localizations.setUserLanguage(request.user.id, localization.language);
      reply.setCookie(LOCALE_COOKIE, localization.language, { path: '/', sameSite: 'lax', maxAge: YEAR_SECONDS });
      return { locale: { ...localization, lines: await localizations.lines(localization.id) } };
    },
  );

  app.get(
    '/value-lists/:names',
    {
      schema: {
        tags: ['localizations'],
        summary: 'Shared lookups: localizations, countries, timezones (comma-separated names)',
        params: valueListsParams,
        response: { 200: valueListsResponse },
      },
    },
    async (request, reply) => {
      const names = new Set(request.params.names);
      const language = request.user?.language ?? request.cookies[LOCALE_COOKIE] ?? 'en';
      reply.header('Cache-Control', 'private, max-age=300');
      return {
        ...(names.has('localizations') ? { localizations: await localizations.list() } : {}),
        ...(names.has('countries') ? { countries: countries(language) } : {}),
        ...(names.has('timezones') ? { timezones: timezones() } : {}),
      };
    },
  );
};
