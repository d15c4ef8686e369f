import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LOCALE_COOKIE } from '../localizations/locale-cookie.js';
import type { BootstrapJson } from './json.js';
import { bootstrapResponseSchema } from './schemas.js';
import type { BootstrapService } from './service.js';

export const bootstrapRoutes: FastifyPluginAsyncZod<{ bootstrap: BootstrapService; bootstrapJson: BootstrapJson }> = async (
  app,
  { bootstrap, bootstrapJson },
) => {
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
      const data = await bootstrap.build(request.user, request.cookies[LOCALE_COOKIE] ?? null, request.impersonatorId, request.twoFactorSetupPending);
      // Already JSON, checked as the schema's serializer would (see BootstrapJson): a JSON string is sent as it is.
      return (reply as FastifyReply).type('application/json; charset=utf-8').send(bootstrapJson.serialize(data));
    },
  );
};
