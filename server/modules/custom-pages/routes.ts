import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { publicPageResponse, slugParam } from './schemas.js';

export const customPageRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/custom-pages/:slug',
    {
      schema: {
        tags: ['custom pages'],
        summary: 'A custom page with its title, HTML body and head tags (guests get 401 for pages for signed-in people)',
        params: slugParam,
        response: { 200: publicPageResponse },
      },
    },
    async (request) => app.services.customPages.forVisitor(request.params.slug, request.user !== null),
  );
};
