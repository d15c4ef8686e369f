import fs from 'node:fs/promises';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

const check = z.object({ status: z.enum(['ok', 'error']), message: z.string().optional() });
const healthResponse = z.object({
  status: z.enum(['ok', 'error']),
  database: check.extend({ dialect: z.enum(['sqlite', 'postgres']) }),
  storage: check,
});

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app.services;

  app.get(
    '/health',
    { schema: { tags: ['health'], summary: 'Database and storage status', response: { 200: healthResponse, 503: healthResponse } } },
    async (request, reply) => {
      const database = await probe(() => db.ping());
      const storage = await probe(async () => {
        await fs.mkdir(config.storageDir, { recursive: true });
        await fs.access(config.storageDir, fs.constants.W_OK);
      });
      const status = database.status === 'ok' && storage.status === 'ok' ? 'ok' : 'error';
      if (status !== 'ok') request.log.warn({ database, storage }, 'health check failed');
      reply.header('Cache-Control', 'no-store');
      return reply.code(status === 'ok' ? 200 : 503).send({ status, database: { ...database, dialect: db.dialect }, storage });
    },
  );
};

async function probe(fn: () => Promise<void>): Promise<{ status: 'ok' | 'error'; message?: string }> {
  try {
    await fn();
    return { status: 'ok' };
  } catch (error) {
    return { status: 'error', message: error instanceof Error ? error.message : String(error) };
  }
}
