import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePermission } from '../../../plugins/guards.js';
import { callerOf } from '../caller.js';
import { listQuery, pageSchema } from '../paging.js';
import { okResponse } from '../users/schemas.js';
import type { Admin } from '../build.js';

const tags = ['admin: workspaces'];
const workspaceRow = z
  .object({
    id: z.number().int(),
    name: z.string(),
    created_at: z.string(),
    owner_id: z.number().int(),
    owner_email: z.string(),
    members_count: z.number().int(),
  })
  .meta({ id: 'AdminWorkspaceRow' });

export const adminWorkspaceRoutes: FastifyPluginAsyncZod<Pick<Admin, 'workspaces'>> = async (app, { workspaces }) => {
  app.get(
    '/workspaces',
    {
      onRequest: requirePermission('all_workspaces.view'),
      schema: {
        tags,
        summary: 'Every workspace with its owner and member count',
        querystring: listQuery(['name', 'created_at'] as const),
        response: { 200: pageSchema(workspaceRow) },
      },
    },
    async (request) => workspaces.list(request.query),
  );
  app.delete(
    '/workspaces/:id',
    {
      onRequest: requirePermission('all_workspaces.delete'),
      schema: {
        tags,
        summary: 'Delete a workspace (its files go to the owner’s trash)',
        params: z.object({ id: z.coerce.number().int().positive() }),
        response: { 200: okResponse },
      },
    },
    async (request) => {
      await workspaces.delete(callerOf(request), request.params.id);
      return { message: 'Deleted workspace' };
    },
  );
};
