import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePermission } from '../../../plugins/guards.js';
import type { Admin } from '../build.js';

const dashboard = z
  .object({
    users: z.number().int(),
    files: z.number().int(),
    workspaces: z.number().int(),
    space: z.object({
      used: z.number(),
      versions: z.number().describe('The part of `used` that is file versions'),
      disk_free: z.number().nullable(),
      disk_total: z.number().nullable(),
    }),
    per_day: z.array(z.object({ date: z.string(), uploads: z.number().int(), signups: z.number().int() })),
    largest_users: z.array(z.object({ id: z.number().int(), email: z.string(), bytes: z.number() })),
    version: z.string(),
    warnings: z.array(z.enum(['mail_not_configured', 'default_admin_password', 'disk_almost_full'])),
  })
  .meta({ id: 'AdminDashboard' });

export const adminDashboardRoutes: FastifyPluginAsyncZod<Pick<Admin, 'dashboard'>> = async (app, deps) => {
  app.get(
    '/dashboard',
    {
      onRequest: requirePermission('reports.view'),
      schema: {
        tags: ['admin: dashboard'],
        summary: 'Counts, space, uploads and sign-ups per day, the largest users, the version and warnings',
        querystring: z.object({ days: z.coerce.number().int().min(7).max(365).default(30) }),
        response: { 200: dashboard },
      },
    },
    async (request) => deps.dashboard.report(request.query.days),
  );
};
