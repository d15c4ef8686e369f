import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { admit, currentActor } from '../../plugins/guards.js';
import { protectiveHeaders } from '../drive/http.js';
import { workspaceQuery } from '../drive/schemas.js';
import type { DocumentsService } from './service.js';
import {
  conflictResponse,
  createDocumentBody,
  fileEntryResponse,
  imageParams,
  readBody,
  readResponse,
  saveBody,
  saveCopyBody,
  saveResponse,
} from './schemas.js';

const tags = ['documents'];
/** A document's JSON can be far larger than Fastify's 1 MiB default; the model's own limits still apply. */
const DOCUMENT_BODY_LIMIT = 32 * 1024 * 1024;

/** The document editor's calls (spec §7 file-entries/read and save) and the drive's "New document". */
export const documentRoutes: FastifyPluginAsyncZod<{ documents: DocumentsService }> = async (app, { documents }) => {
  app.addHook('onRequest', admit('user'));

  app.post(
    '/file-entries/read',
    {
      schema: {
        tags,
        summary: 'Read a stored .docx as document sections',
        description: 'A file that is not a .docx, or a damaged one, answers 422; one too large to open, 413.',
        body: readBody,
        response: { 200: readResponse },
      },
    },
    async (request) => documents.read(currentActor(request), request.body.id, request.body.versionId),
  );

  app.post(
    '/file-entries/save',
    {
      bodyLimit: DOCUMENT_BODY_LIMIT,
      schema: {
        tags,
        summary: 'Save document sections as a new version of the same .docx',
        description:
          'Conditional: `version` must be the stored one, else 409 with the current version and nothing is written. Images may only name the document itself or drive images the caller may view; others are left out.',
        body: saveBody,
        response: { 200: saveResponse, 409: conflictResponse },
      },
    },
    async (request) => documents.save(currentActor(request), request.body.id, request.body.version, request.body.content),
  );

  app.post(
    '/file-entries/save-copy',
    {
      bodyLimit: DOCUMENT_BODY_LIMIT,
      schema: {
        tags,
        summary: "Save document sections as a new .docx beside the original (a conflict's copy)",
        querystring: workspaceQuery,
        body: saveCopyBody,
        response: { 200: fileEntryResponse },
      },
    },
    async (request) => documents.saveCopy(currentActor(request), request.ctx.workspaceId, request.body.id, request.body.name, request.body.content),
  );

  app.post(
    '/documents',
    {
      schema: {
        tags,
        summary: 'Create an empty .docx in a folder',
        querystring: workspaceQuery,
        body: createDocumentBody,
        response: { 200: fileEntryResponse },
      },
    },
    async (request) => documents.create(currentActor(request), request.ctx.workspaceId, request.body.parentId ?? null, request.body.name),
  );

  app.get(
    '/file-entries/:id/document-images/:name',
    { compress: false, schema: { tags, summary: "An image of a document's own package", params: imageParams, response: { 200: z.any() } } },
    async (request, reply) => {
      const image = await documents.image(currentActor(request), request.params.id, request.params.name);
      protectiveHeaders(reply, false);
      return reply.type(image.mime).send(image.bytes);
    },
  );
};
