import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePermission } from '../../../plugins/guards.js';
import { appVersion } from '../../../observability/config.js';
import { healthReport } from '../../../observability/health-report.js';
import { tracingOn } from '../../../observability/tracing.js';
import type { AdminHealth } from './sources.js';

const reachability = { status: z.enum(['ok', 'error']), ms: z.number().describe('How long the probe took') };

const healthSchema = z
  .object({
    generated_at: z.string(),
    uptime_seconds: z.number().int(),
    started_at: z.string(),
    versions: z.object({ app: z.string(), node: z.string(), database: z.string().nullable() }),
    database: z.object({ ...reachability, dialect: z.enum(['sqlite', 'postgres']) }),
    storage: z.object({ ...reachability, driver: z.enum(['local', 's3']) }),
    metrics: z.boolean().describe('Whether figures are collected (METRICS_ENABLED); the counts below are null when not'),
    error_reporting: z.boolean(),
    tracing: z.boolean(),
    errors: z
      .object({
        last_hour: z.object({ request: z.number().int(), job: z.number().int() }),
        per_minute: z.array(z.object({ minute: z.string(), request: z.number().int(), job: z.number().int() })),
      })
      .nullable()
      .describe("This process's 5xx answers and jobs out of tries, per minute over the last hour"),
    slowest_routes: z.array(z.object({ method: z.string(), route: z.string(), count: z.number().int(), average_ms: z.number() })).nullable(),
    jobs: z.object({
      waiting: z.number().int(),
      runs: z.array(z.object({ job: z.string(), ok: z.number().int(), retry: z.number().int(), failed: z.number().int() })).nullable(),
    }),
    deliveries: z.array(z.object({ channel: z.string(), sent: z.number().int(), failed: z.number().int() })).nullable(),
  })
  .meta({ id: 'AdminHealth' });

export const adminHealthRoutes: FastifyPluginAsyncZod<{ health: AdminHealth }> = async (app, { health }) => {
  app.get(
    '/health',
    {
      onRequest: requirePermission('reports.view'),
      schema: {
        tags: ['admin: dashboard'],
        summary: 'Errors in the last hour, slowest routes, jobs, deliveries, database and storage reachability, versions and uptime',
        response: { 200: healthSchema },
      },
    },
    async (request, reply) => {
      void reply.header('Cache-Control', 'no-store');
      return healthReport({
        ...health,
        metrics: app.observability.metrics,
        appVersion: appVersion(),
        errorReporting: app.observability.errors.enabled,
        tracing: tracingOn(),
        log: request.log,
      });
    },
  );
};
