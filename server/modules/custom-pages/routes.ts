import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { publicPageResponse, slugParam } from './schemas.js';
import type { CustomPagesService } from './service.js';

export const customPageRoutes: FastifyPluginAsyncZod<{ customPages: CustomPagesService }> = async (app, { customPages }) => {
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
    async (request) => customPages.forVisitor(request.params.slug, request.user !== null),
  );
};
