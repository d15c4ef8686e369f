import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { HealthService } from './service.js';

const check = z.object({ status: z.enum(['ok', 'error']), message: z.string().optional() });
const healthResponse = z.object({
  status: z.enum(['ok', 'error']),
  database: check.extend({ dialect: z.enum(['sqlite', 'postgres']) }),
  storage: check,
});

export const healthRoutes: FastifyPluginAsyncZod<{ health: HealthService }> = async (app, { health: service }) => {
  app.get(
    '/health',
    { schema: { tags: ['health'], summary: 'Database and storage status', response: { 200: healthResponse, 503: healthResponse } } },
    async (request, reply) => {
      const health = await service.check(request.log);
      reply.header('Cache-Control', 'no-store');
      return reply.code(health.status === 'ok' ? 200 : 503).send(health);
    },
  );
};
