import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ValidationError } from '../../../lib/errors.js';
import { requirePermission } from '../../../plugins/guards.js';
import { acceptMultipart } from '../../../plugins/multipart.js';
import { BRANDING_MAX_BYTES, BRANDING_TOO_LARGE, BRANDING_WRONG_TYPE } from '../../appearance/branding-files.js';
import { appearanceBody, appearanceValues } from '../../appearance/schemas.js';
import { callerOf } from '../caller.js';
import type { Admin } from '../build.js';

const tags = ['admin: appearance'];
const guard = requirePermission('appearance.update');
const valuesResponse = z.object({ values: appearanceValues });

export const adminAppearanceRoutes: FastifyPluginAsyncZod<Pick<Admin, 'appearance'>> = async (app, { appearance }) => {
  app.get(
    '/appearance',
    { onRequest: guard, schema: { tags, summary: 'Branding, theme settings and custom code', response: { 200: valuesResponse } } },
    async () => ({ values: await appearance.read() }),
  );
  app.put(
    '/appearance',
    {
      onRequest: guard,
      schema: {
        tags,
        summary: 'Save the appearance editor (any subset); custom code is stored as written',
        body: appearanceBody,
        response: { 200: valuesResponse },
      },
    },
    async (request) => ({ values: await appearance.update(callerOf(request), request.body) }),
  );
  await app.register(async (scope) => {
    await acceptMultipart(scope);
    scope.withTypeProvider<ZodTypeProvider>().post(
      '/appearance/uploads',
      {
        onRequest: guard,
        schema: {
          tags,
          summary: 'Upload a logo or favicon (multipart "file"; PNG, JPEG, GIF, WebP, ICO or SVG, at most 1 MB)',
          response: { 200: z.object({ url: z.string(), mime: z.string(), size: z.number().int() }) },
        },
      },
      async (request) => {
        if (!request.isMultipart()) throw ValidationError.field('file', BRANDING_WRONG_TYPE);
        let bytes: Buffer | null = null;
        try {
          for await (const part of request.parts({ limits: { fileSize: BRANDING_MAX_BYTES, files: 1, fields: 2 } })) {
            if (part.type === 'file') {
              bytes = await part.toBuffer();
              break;
            }
          }
        } catch (error) {
          if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw ValidationError.field('file', BRANDING_TOO_LARGE);
          throw error;
        }
        if (!bytes) throw ValidationError.field('file', BRANDING_WRONG_TYPE);
        return appearance.upload(callerOf(request), bytes);
      },
    );
  });
};
