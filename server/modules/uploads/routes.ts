import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PreconditionFailed, UnsupportedMediaType, ValidationError } from '../../lib/errors.js';
import { admit, currentActor } from '../../plugins/guards.js';
import { acceptMultipart } from '../../plugins/multipart.js';
import { fileEntrySchema, workspaceQuery } from '../drive/schemas.js';
import { readFilePart } from './multipart.js';
import { s3UploadRoutes, type S3UploadRoutesDeps } from './s3-routes.js';
import type { UploadsService } from './service.js';
import { TUS_PATH, type TusUploads } from './tus.js';

const fileEntryResponse = z.object({ fileEntry: fileEntrySchema });
const TUS_VERSION = '1.0.0';

/**
 * Uploads (spec §7 "Upload calls"): a plain multipart POST for small files,
 * and tus 1.0 for resumable ones, finished by `tus/entries`.
 */
export interface UploadRoutesDeps extends S3UploadRoutesDeps {
  uploads: UploadsService;
  tus: Pick<TusUploads, 'handle'>;
}

export const uploadRoutes: FastifyPluginAsyncZod<UploadRoutesDeps> = async (app, { uploads, tus, s3Uploads }) => {
  // tus PATCH bodies are for @tus/server to read from the socket, never for Fastify to buffer.
  app.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null));

  app.addHook('onRequest', admit('user'));
  await app.register(s3UploadRoutes, { s3Uploads });

  await app.register(async (scope) => {
    await acceptMultipart(scope);
    scope.withTypeProvider<ZodTypeProvider>().post(
      '/file-entries',
      {
        schema: {
          tags: ['uploads'],
          summary:
            'Upload a file (multipart: parentId, relativePath?, onConflict? — "replace" makes it the new content of the file of that name, its old bytes a version; default "rename" keeps both — then file, the file part last)',
          querystring: workspaceQuery,
          response: { 200: fileEntryResponse },
        },
      },
      async (request) => {
        if (!request.isMultipart()) throw ValidationError.field('file', 'Send the file as multipart/form-data.');
        const fileEntry = await uploads.storePlain(currentActor(request), request.ctx.workspaceId, {
          contentLength: Number(request.headers['content-length']),
          readFile: (limit) => readFilePart(request, limit),
        });
        return { fileEntry };
      },
    );
  });

  const handleTus = async (request: FastifyRequest, reply: FastifyReply) => {
    const version = request.headers['tus-resumable'];
    // The protocol wants 412 with Tus-Version for a version we do not speak (@tus/server answers 400).
    if (request.method !== 'OPTIONS' && version !== undefined && version !== TUS_VERSION) {
      reply.header('Tus-Version', TUS_VERSION);
      throw PreconditionFailed('This server speaks tus :supported, not :version.', { supported: TUS_VERSION, version: String(version) });
    }
    reply.hijack();
    await tus.handle(request.raw, reply.raw, { actor: currentActor(request), workspaceId: request.ctx.workspaceId });
  };
  const tusRoute = {
    schema: { hide: true },
    // Before Fastify would try to parse a body: tus PATCH bodies have exactly one type.
    onRequest: async (request: FastifyRequest) => {
      if (request.method === 'PATCH' && request.headers['content-type']?.split(';')[0]?.trim() !== 'application/offset+octet-stream') {
        throw UnsupportedMediaType('A tus PATCH must have Content-Type: application/offset+octet-stream.');
      }
    },
  };
  app.route({ method: ['POST', 'OPTIONS'], url: TUS_PATH.replace('/api/v1', ''), ...tusRoute, handler: handleTus });
  app.route({ method: ['HEAD', 'PATCH', 'DELETE', 'OPTIONS'], url: `${TUS_PATH.replace('/api/v1', '')}/:id`, ...tusRoute, handler: handleTus });

  app.post(
    '/tus/entries',
    {
      schema: {
        tags: ['uploads'],
        summary: 'Turn a finished resumable upload into a file entry (once: a second finish answers 404)',
        querystring: workspaceQuery,
        body: z.object({
          uploadKey: z
            .string()
            .min(1)
            .max(128)
            .regex(/^[A-Za-z0-9_-]+$/),
        }),
        response: { 200: fileEntryResponse },
      },
    },
    async (request) => ({ fileEntry: await uploads.finishTus(currentActor(request), request.ctx.workspaceId, request.body.uploadKey) }),
  );
};
