import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LOCALE_COOKIE } from '../localizations/locale-cookie.js';
import { bootstrapResponseSchema } from './schemas.js';

export const bootstrapRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/bootstrap-data',
    {
      schema: {
        tags: ['bootstrap'],
        summary: 'Everything the app needs before its first screen',
        response: { 200: bootstrapResponseSchema },
      },
    },
    async (request, reply) => {
      // Personalised: never stored by shared caches.
      reply.header('Cache-Control', 'private, no-cache');
      return { data: await app.services.bootstrap.build(request.user, request.cookies[LOCALE_COOKIE] ?? null, request.impersonatorId) };
    },
  );
};
