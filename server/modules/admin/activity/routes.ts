import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePermission } from '../../../plugins/guards.js';
import { listQuery, pageSchema } from '../paging.js';
import type { Admin } from '../build.js';

const activityRow = z
  .object({
    id: z.number().int(),
    actor_id: z.number().int().nullable(),
    actor_label: z.string(),
    action: z.string(),
    subject_type: z.string(),
    subject_id: z.string().nullable(),
    subject_label: z.string().nullable(),
    details: z.record(z.string(), z.unknown()),
    ip_address: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'AdminActivity' });

export const adminActivityRoutes: FastifyPluginAsyncZod<Pick<Admin, 'activity'>> = async (app, { activity }) => {
  app.get(
    '/activity',
    {
      onRequest: requirePermission('activity.view'),
      schema: {
        tags: ['admin: activity'],
        summary: 'The log of admin actions, newest first',
        querystring: listQuery(['created_at'] as const).extend({ action: z.string().max(64).optional() }),
        response: { 200: pageSchema(activityRow) },
      },
    },
    async (request) => activity.list(request.query),
  );
};
