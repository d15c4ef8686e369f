import fs from 'node:fs/promises';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { requirePermission } from '../../../plugins/guards.js';
import { appVersion } from '../../../observability/config.js';
import { healthReport } from '../../../observability/health-report.js';
import { tracingOn } from '../../../observability/tracing.js';

const reachability = { status: z.enum(['ok', 'error']), ms: z.number().describe('How long the probe took') };

const health = z
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

export const adminHealthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    {
      onRequest: requirePermission('reports.view'),
      schema: {
        tags: ['admin: dashboard'],
        summary: 'Errors in the last hour, slowest routes, jobs, deliveries, database and storage reachability, versions and uptime',
        response: { 200: health },
      },
    },
    async (request, reply) => {
      const { db, config, drive, jobs } = app.services;
      void reply.header('Cache-Control', 'no-store');
      return healthReport({
        metrics: app.observability.metrics,
        jobsWaiting: () => jobs.waiting(),
        database: {
          dialect: db.dialect,
          ping: () => db.ping(),
          serverVersion: async () => {
            const query = db.dialect === 'postgres' ? sql<{ v: string }>`show server_version` : sql<{ v: string }>`select sqlite_version() as v`;
            const row = (await query.execute(db.kysely)).rows[0] as Record<string, string> | undefined;
            const version = row ? (row.v ?? row.server_version) : undefined;
            return version ? `${db.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite'} ${version}` : null;
          },
        },
        storage: {
          driver: config.storage.driver,
          // The bucket answers a HEAD for a key that need not exist; the local folder must be writable.
          probe: async () => {
            if (config.storage.driver === 's3') await drive.disk.stat('health-probe');
            else {
              await fs.mkdir(config.storageDir, { recursive: true });
              await fs.access(config.storageDir, fs.constants.W_OK);
            }
          },
        },
        appVersion: appVersion(),
        errorReporting: app.observability.errors.enabled,
        tracing: tracingOn(),
        log: request.log,
      });
    },
  );
};
