import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentActor } from '../../plugins/guards.js';
import type { Drive } from './build.js';
import { OCTET_STREAM } from './kinds.js';
import { fileEntryResponse, entryParams, versionParams, versionsResponse } from './schemas.js';
import { sendStored } from './send-stored.js';

const tags = ['drive'];
const fileResponses = {
  200: z.any().describe('The bytes'),
  206: z.any().describe('A byte range of them'),
  304: z.null().describe('Not modified'),
};

/**
 * A file's versions (issue 34): signed-in callers only (the drive's scope
 * admits users; share-link visitors never see versions). List, preview and
 * download follow view and download on the file; restore and delete need
 * update (owners and editors).
 */
export const versionRoutes: FastifyPluginAsyncZod<{ drive: Pick<Drive, 'versions' | 'files'> }> = async (app, { drive }) => {
  app.get(
    '/file-entries/:id/versions',
    { schema: { tags, summary: "A file's earlier contents, newest first", params: entryParams, response: { 200: versionsResponse } } },
    async (request) => ({ versions: await drive.versions.list(currentActor(request), request.params.id) }),
  );

  app.get(
    '/file-entries/:id/versions/:versionId/download',
    { compress: false, schema: { tags, summary: 'Download a version (named as the file)', params: versionParams, response: fileResponses } },
    async (request, reply) => {
      const { entry, version, key } = await drive.versions.open(currentActor(request), request.params.id, request.params.versionId, 'files.download');
      const asOf = { ...entry, file_size: version.file_size, sha256: version.sha256, updated_at: version.created_at };
      return sendStored(request, reply, drive.files, asOf, key, { inline: false, contentType: version.mime ?? OCTET_STREAM, download: true });
    },
  );

  app.get(
    '/file-entries/:id/versions/:versionId/preview',
    { compress: false, schema: { tags, summary: 'Show a version inline (kinds that have a preview only)', params: versionParams, response: fileResponses } },
    async (request, reply) => {
      const { entry, version, key, mode } = await drive.versions.preview(currentActor(request), request.params.id, request.params.versionId);
      const asOf = { ...entry, file_size: version.file_size, sha256: version.sha256, updated_at: version.created_at };
      return sendStored(request, reply, drive.files, asOf, key, mode);
    },
  );

  app.post(
    '/file-entries/:id/versions/:versionId/restore',
    {
      schema: {
        tags,
        summary: 'Make a version the current content again; the current bytes become a version first',
        params: versionParams,
        response: { 200: fileEntryResponse },
      },
    },
    async (request) => ({ fileEntry: await drive.versions.restore(currentActor(request), request.params.id, request.params.versionId) }),
  );

  app.delete(
    '/file-entries/:id/versions/:versionId',
    { schema: { tags, summary: 'Delete a version and its bytes', params: versionParams, response: { 200: z.object({ deleted: z.literal(true) }) } } },
    async (request) => {
      await drive.versions.delete(currentActor(request), request.params.id, request.params.versionId);
      return { deleted: true as const };
    },
  );
};
