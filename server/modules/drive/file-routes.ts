import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentActor } from '../../plugins/guards.js';
import type { Drive } from './build.js';
import { sendDownload, sendStored, sendThumbnail } from './send-stored.js';
import { downloadQuery, entryParams, spaceUsageResponse, workspaceQuery } from './schemas.js';

const tags = ['drive'];
const fileResponses = {
  200: z.any().describe('The bytes'),
  206: z.any().describe('A byte range of them'),
  304: z.null().describe('Not modified'),
};

/** Bytes out: downloads (one file or a zip), previews, thumbnails; and the storage summary. */
export const fileRoutes: FastifyPluginAsyncZod<{ drive: Pick<Drive, 'files' | 'thumbnails' | 'entries' | 'scope'> }> = async (app, { drive }) => {
  app.get(
    '/file-entries/download',
    {
      // Compressing would break ranges and Content-Length; zips and media gain nothing from it.
      compress: false,
      schema: {
        tags,
        summary: 'Download one file, or several entries / a folder as a streamed zip',
        querystring: downloadQuery,
        response: fileResponses,
      },
    },
    async (request, reply) => {
      const result = await drive.files.download(currentActor(request), request.query.hashes, (error) =>
        request.log.warn({ err: error }, 'zip download failed'),
      );
      return sendDownload(request, reply, drive.files, result);
    },
  );

  app.get(
    '/file-entries/:id/preview',
    {
      compress: false,
      schema: {
        tags,
        summary:
          'Show a file inline: images, video, audio, PDF, and text as plain text. Other kinds (markup such as HTML and SVG included) have no preview (404)',
        params: entryParams,
        response: fileResponses,
      },
    },
    async (request, reply) => {
      const { entry, key, mode } = await drive.files.preview(currentActor(request), request.params.id);
      return sendStored(request, reply, drive.files, entry, key, mode);
    },
  );

  app.get(
    '/file-entries/:id/thumbnail',
    { compress: false, schema: { tags, summary: 'A WebP thumbnail of an image (made on demand if missing)', params: entryParams, response: { 200: z.any() } } },
    async (request, reply) => {
      const { entry } = await drive.files.openable(currentActor(request), request.params.id);
      return sendThumbnail(reply, drive, entry);
    },
  );

  app.get(
    '/user/space-usage',
    {
      schema: {
        tags,
        summary: 'Storage summary: bytes used and available (null: unlimited)',
        description: "In a workspace, its payer's (the owner's): what the workspace's uploads are charged to.",
        querystring: workspaceQuery,
        response: { 200: spaceUsageResponse },
      },
    },
    async (request) => drive.entries.spaceUsage(currentActor(request), await drive.scope(request.actor, request.ctx.workspaceId)),
  );
};
