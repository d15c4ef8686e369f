import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requirePermission } from '../../../plugins/guards.js';
import { MENU_POSITIONS, menuIdParam, menuInput, menuListResponse, menuResponse } from '../../menus/schemas.js';
import { callerOf } from '../caller.js';
import { okResponse } from '../users/schemas.js';
import type { Admin } from '../build.js';

const tags = ['admin: menus'];

export const adminMenuRoutes: FastifyPluginAsyncZod<Pick<Admin, 'menus'>> = async (app, { menus }) => {
  app.get(
    '/menus',
    {
      onRequest: requirePermission('menus.view'),
      schema: { tags, summary: 'Every stored menu with its items, and the positions menus can take', response: { 200: menuListResponse } },
    },
    async () => ({ menus: await menus.list(), positions: [...MENU_POSITIONS] }),
  );
  app.post(
    '/menus',
    { onRequest: requirePermission('menus.update'), schema: { tags, summary: 'Create a menu', body: menuInput, response: { 200: menuResponse } } },
    async (request) => ({ menu: await menus.create(callerOf(request), request.body) }),
  );
  app.put(
    '/menus/:id',
    {
      onRequest: requirePermission('menus.update'),
      schema: {
        tags,
        summary: 'Replace a menu: name, positions and its items in order',
        params: menuIdParam,
        body: menuInput,
        response: { 200: menuResponse },
      },
    },
    async (request) => ({ menu: await menus.update(callerOf(request), request.params.id, request.body) }),
  );
  app.delete(
    '/menus/:id',
    { onRequest: requirePermission('menus.update'), schema: { tags, summary: 'Delete a menu', params: menuIdParam, response: { 200: okResponse } } },
    async (request) => {
      await menus.delete(callerOf(request), request.params.id);
      return { message: 'Deleted menu' };
    },
  );
};
