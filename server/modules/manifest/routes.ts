import type { FastifyPluginAsync } from 'fastify';
import type { ManifestService } from './service.js';

export const manifestRoutes: FastifyPluginAsync<{ manifest: ManifestService }> = async (app, { manifest }) => {
  app.get('/manifest.webmanifest', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('Cache-Control', 'no-cache').type('application/manifest+json');
    return manifest.build();
  });
};
