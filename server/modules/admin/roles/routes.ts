import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requirePermission } from '../../../plugins/guards.js';
import { proofOf } from '../../users/proof.js';
import { callerOf } from '../caller.js';
import { okResponse } from '../users/schemas.js';
import { permissionList, roleBody, roleIdParam, roleList, roleResponse } from './schemas.js';
import type { Admin } from '../build.js';

const tags = ['admin: roles'];

export const adminRoleRoutes: FastifyPluginAsyncZod<Pick<Admin, 'roles'>> = async (app, { roles }) => {
  app.get(
    '/permissions',
    { onRequest: requirePermission('roles.view'), schema: { tags, summary: 'The permission catalogue', response: { 200: permissionList } } },
    async () => ({ permissions: await roles.permissions() }),
  );
  app.get(
    '/roles',
    { onRequest: requirePermission('roles.view'), schema: { tags, summary: 'Every role with its permissions and user count', response: { 200: roleList } } },
    async () => ({ roles: await roles.list() }),
  );
  app.post(
    '/roles',
    { onRequest: requirePermission('roles.update'), schema: { tags, summary: 'Create a role', body: roleBody, response: { 200: roleResponse } } },
    async (request) => {
      const { current_password: currentPassword, ...input } = request.body;
      return { role: await roles.create(callerOf(request), input, proofOf(request, currentPassword)) };
    },
  );
  app.put(
    '/roles/:id',
    {
      onRequest: requirePermission('roles.update'),
      schema: { tags, summary: 'Edit a role and its permissions', params: roleIdParam, body: roleBody, response: { 200: roleResponse } },
    },
    async (request) => {
      const { current_password: currentPassword, ...input } = request.body;
      return { role: await roles.update(callerOf(request), request.params.id, input, proofOf(request, currentPassword)) };
    },
  );
  app.delete(
    '/roles/:id',
    { onRequest: requirePermission('roles.update'), schema: { tags, summary: 'Delete a role', params: roleIdParam, response: { 200: okResponse } } },
    async (request) => {
      await roles.delete(callerOf(request), request.params.id);
      return { message: 'Deleted role' };
    },
  );
};
