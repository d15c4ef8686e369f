import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requirePermission } from '../../../plugins/guards.js';
import { THEME_VARIABLES } from '../../themes/colors.js';
import { callerOf } from '../caller.js';
import { okResponse } from '../users/schemas.js';
import { themeBody, themeIdParam, themeList, themeResponse } from './schemas.js';
import type { Admin } from '../build.js';

const tags = ['admin: themes'];
const view = requirePermission('themes.view');
const update = requirePermission('themes.update');

export const adminThemeRoutes: FastifyPluginAsyncZod<Pick<Admin, 'themes'>> = async (app, { themes }) => {
  app.get(
    '/themes',
    { onRequest: view, schema: { tags, summary: 'Every site theme and the colour variables a theme sets', response: { 200: themeList } } },
    async () => ({ themes: await themes.list(), variables: [...THEME_VARIABLES] }),
  );
  app.post(
    '/themes',
    {
      onRequest: update,
      schema: { tags, summary: 'Create a theme (missing colours come from the shipped one)', body: themeBody, response: { 200: themeResponse } },
    },
    async (request) => ({ theme: await themes.create(callerOf(request), request.body) }),
  );
  app.put(
    '/themes/:id',
    {
      onRequest: update,
      schema: {
        tags,
        summary: 'Edit a theme; marking it default unmarks the previous one',
        params: themeIdParam,
        body: themeBody,
        response: { 200: themeResponse },
      },
    },
    async (request) => ({ theme: await themes.update(callerOf(request), request.params.id, request.body) }),
  );
  app.delete(
    '/themes/:id',
    { onRequest: update, schema: { tags, summary: 'Delete a theme (not a default one)', params: themeIdParam, response: { 200: okResponse } } },
    async (request) => {
      await themes.delete(callerOf(request), request.params.id);
      return { message: 'Deleted theme' };
    },
  );
};
