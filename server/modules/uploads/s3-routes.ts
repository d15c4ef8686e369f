import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentActor } from '../../plugins/guards.js';
import { fileEntrySchema, workspaceQuery } from '../drive/schemas.js';
import type { S3DirectUploads } from './s3-direct.js';
import { MAX_PARTS } from './s3-sizing.js';

const uploadKey = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/);
const storeUploadId = z.string().min(1).max(1024);
const metadata = z
  .object({
    parentId: z.string().max(64).nullish(),
    relativePath: z.string().max(1024).nullish(),
    onConflict: z.enum(['rename', 'replace', 'ask']).nullish(),
  })
  .optional()
  .describe('Where the file goes: parentId (folder hash, null for the root), relativePath (folder uploads), onConflict (a taken name: rename, replace, ask)');
const fileBody = {
  filename: z.string().trim().min(1).max(255),
  mime: z.string().max(255).nullish(),
  size: z.number().int().min(0),
  extension: z.string().max(32).nullish(),
  metadata,
};
const partNumber = z.number().int().min(1).max(MAX_PARTS);
const multipartRef = { key: uploadKey, uploadId: storeUploadId };
const storedPart = z.object({ PartNumber: z.number().int(), ETag: z.string(), Size: z.number().int() });

/**
 * Direct uploads to S3 (spec §7 "Upload calls"): a simple presigned PUT, or a
 * resumable multipart upload, each finished by `s3/entries`. Registered under
 * the uploads routes (signed-in users only); 404 when the server's disk is
 * not S3 or direct uploads are off.
 */
export interface S3UploadRoutesDeps {
  s3Uploads: S3DirectUploads;
}

export const s3UploadRoutes: FastifyPluginAsyncZod<S3UploadRoutesDeps> = async (app, { s3Uploads }) => {
  const common = { tags: ['uploads'], querystring: workspaceQuery };

  app.post(
    '/s3/simple/presign',
    {
      schema: {
        ...common,
        summary: 'Reserve the space for a file under 100 MB and sign one PUT of exactly its size and type',
        body: z.object({ ...fileBody, disk: z.string().max(32).optional() }),
        response: { 200: z.object({ url: z.string(), acl: z.string(), key: z.string(), contentType: z.string() }) },
      },
    },
    async (request) => s3Uploads.presignSimple(currentActor(request), request.ctx.workspaceId, request.body),
  );

  app.post(
    '/s3/entries',
    {
      schema: {
        ...common,
        summary: 'Turn a finished direct upload (filename: its key) into a file entry where its bytes lie',
        body: z.object({
          filename: uploadKey,
          size: z.number().int().min(0).optional(),
          clientName: z.string().max(255).optional(),
          clientMime: z.string().max(255).nullish(),
          clientExtension: z.string().max(32).nullish(),
          metadata,
        }),
        response: { 200: z.object({ fileEntry: fileEntrySchema }) },
      },
    },
    async (request) => ({ fileEntry: await s3Uploads.createEntry(currentActor(request), request.body.filename, request.body.metadata?.onConflict) }),
  );

  app.post(
    '/s3/multipart/create',
    {
      schema: {
        ...common,
        summary: 'Reserve the space and start a multipart upload; answers the part size the parts must have',
        body: z.object(fileBody),
        response: { 200: z.object({ uploadId: z.string(), key: z.string(), partSize: z.number().int(), partCount: z.number().int() }) },
      },
    },
    async (request) => s3Uploads.createMultipart(currentActor(request), request.ctx.workspaceId, request.body),
  );

  app.post(
    '/s3/multipart/get-uploaded-parts',
    {
      schema: {
        ...common,
        summary: 'The parts the store already holds for your upload (to resume it)',
        body: z.object(multipartRef),
        response: { 200: z.object({ parts: z.array(storedPart), partSize: z.number().int().nullable(), partCount: z.number().int() }) },
      },
    },
    async (request) => s3Uploads.uploadedParts(currentActor(request), request.body.key, request.body.uploadId),
  );

  app.post(
    '/s3/multipart/batch-sign-part-urls',
    {
      schema: {
        ...common,
        summary: 'Presigned PUT URLs for up to 10 parts of your upload',
        body: z.object({ ...multipartRef, partNumbers: z.array(partNumber).min(1).max(10) }),
        response: { 200: z.object({ urls: z.array(z.object({ partNumber: z.number().int(), url: z.string() })) }) },
      },
    },
    async (request) => s3Uploads.signParts(currentActor(request), request.body.key, request.body.uploadId, request.body.partNumbers),
  );

  app.post(
    '/s3/multipart/complete',
    {
      schema: {
        ...common,
        summary: 'Assemble the parts once they match the store and the declared size (then call s3/entries)',
        body: z.object({
          ...multipartRef,
          parts: z
            .array(z.object({ PartNumber: partNumber, ETag: z.string().min(1).max(128) }))
            .min(1)
            .max(MAX_PARTS),
        }),
        response: { 200: z.object({ key: z.string() }) },
      },
    },
    async (request) => s3Uploads.complete(currentActor(request), request.body.key, request.body.uploadId, request.body.parts),
  );

  app.post(
    '/s3/multipart/abort',
    {
      schema: {
        ...common,
        summary: 'Abort your multipart upload and release its space',
        body: z.object(multipartRef),
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await s3Uploads.abort(currentActor(request), request.body.key, request.body.uploadId);
      return reply.code(204).send(null);
    },
  );
};
