import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requirePermission } from '../../../plugins/guards.js';
import { pageBody } from '../../custom-pages/schemas.js';
import { callerOf } from '../caller.js';
import { okResponse } from '../users/schemas.js';
import { pageIdParam, pageList, pageListQuery, pageResponse } from './schemas.js';
import type { Admin } from '../build.js';

const tags = ['admin: custom pages'];

export const adminCustomPageRoutes: FastifyPluginAsyncZod<Pick<Admin, 'customPages'>> = async (app, { customPages }) => {
  app.get(
    '/custom-pages',
    {
      onRequest: requirePermission('custom_pages.view'),
      schema: { tags, summary: 'Custom pages, a page at a time', querystring: pageListQuery, response: { 200: pageList } },
    },
    async (request) => customPages.list(request.query),
  );
  app.get(
    '/custom-pages/:id',
    { onRequest: requirePermission('custom_pages.view'), schema: { tags, summary: 'One custom page', params: pageIdParam, response: { 200: pageResponse } } },
    async (request) => ({ page: await customPages.get(request.params.id) }),
  );
  app.post(
    '/custom-pages',
    {
      onRequest: requirePermission('custom_pages.create'),
      schema: { tags, summary: 'Create a custom page (its HTML is sanitised)', body: pageBody, response: { 200: pageResponse } },
    },
    async (request) => ({ page: await customPages.create(callerOf(request), request.body) }),
  );
  app.put(
    '/custom-pages/:id',
    {
      onRequest: requirePermission('custom_pages.update'),
      schema: { tags, summary: 'Edit a custom page (its HTML is sanitised)', params: pageIdParam, body: pageBody, response: { 200: pageResponse } },
    },
    async (request) => ({ page: await customPages.update(callerOf(request), request.params.id, request.body) }),
  );
  app.delete(
    '/custom-pages/:id',
    {
      onRequest: requirePermission('custom_pages.delete'),
      schema: { tags, summary: 'Delete a custom page', params: pageIdParam, response: { 200: okResponse } },
    },
    async (request) => {
      await customPages.delete(callerOf(request), request.params.id);
      return { message: 'Deleted page' };
    },
  );
};
