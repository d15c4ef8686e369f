import type { FastifyPluginAsync } from 'fastify';

export const manifestRoutes: FastifyPluginAsync = async (app) => {
  app.get('/manifest.webmanifest', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('Cache-Control', 'no-cache').type('application/manifest+json');
    return app.services.manifest.build();
  });
};
