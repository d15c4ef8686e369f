import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { NotFound } from '../../lib/errors.js';
import type { BrandingFiles } from './branding-files.js';

/**
 * Branding files are public (logos show on the sign-in page). Names are
 * random, so the bytes never change. Served with the type checked at upload,
 * never sniffed, and sandboxed: an SVG opened on its own runs no script.
 */
export const brandingRoutes: FastifyPluginAsyncZod<{ brandingFiles: BrandingFiles }> = async (app, { brandingFiles }) => {
  app.get(
    '/branding/:name',
    { schema: { tags: ['appearance'], summary: 'A logo or favicon an admin uploaded', params: z.object({ name: z.string().max(64) }) } },
    async (request, reply) => {
      const file = await brandingFiles.open(request.params.name);
      if (!file) throw NotFound();
      reply.header('Cache-Control', 'public, max-age=31536000, immutable');
      reply.header('X-Content-Type-Options', 'nosniff');
      reply.header('Content-Security-Policy', "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:");
      reply.header('Content-Disposition', 'inline');
      reply.header('Content-Length', String(file.size));
      return reply.type(file.mime).send(file.body);
    },
  );
};
