import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { FileEntryRow } from '../../db/types.js';
import { NotFound, RangeNotSatisfiable } from '../../lib/errors.js';
import { currentActor } from '../../plugins/guards.js';
import type { DriveFiles } from './files.js';
import { contentDisposition, etagOf, isNotModified, parseRange, protectiveHeaders, rangeApplies } from './http.js';
import { OCTET_STREAM, previewMode } from './kinds.js';
import { downloadQuery, entryParams, spaceUsageResponse } from './schemas.js';

const tags = ['drive'];
const fileResponses = {
  200: z.any().describe('The bytes'),
  206: z.any().describe('A byte range of them'),
  304: z.null().describe('Not modified'),
};

interface SendOptions {
  inline: boolean;
  contentType: string;
}

/** One stored file with Range, validators and a safe disposition. */
async function sendStored(request: FastifyRequest, reply: FastifyReply, files: DriveFiles, entry: FileEntryRow, key: string, options: SendOptions) {
  const size = Number(entry.file_size);
  const etag = etagOf(entry.sha256);
  const lastModified = new Date(entry.updated_at);
  const sandbox = !options.inline || options.contentType.startsWith('text/');
  protectiveHeaders(reply, sandbox);
  reply.header('Accept-Ranges', 'bytes');
  if (etag) reply.header('ETag', etag);
  reply.header('Last-Modified', lastModified.toUTCString());
  reply.header('Content-Disposition', contentDisposition(options.inline ? 'inline' : 'attachment', entry.name));
  if (isNotModified(request, etag, lastModified)) return reply.code(304).send();

  const range = rangeApplies(request, etag) ? parseRange(request.headers.range, size) : { kind: 'full' as const };
  if (range.kind === 'unsatisfiable') {
    reply.header('Content-Range', `bytes */${size}`);
    throw RangeNotSatisfiable();
  }
  reply.type(options.contentType);
  if (range.kind === 'partial') {
    const { start, end } = range.range;
    const body = await files.read(key, range.range);
    reply.header('Content-Range', `bytes ${start}-${end}/${size}`).header('Content-Length', end - start + 1);
    return reply.code(206).send(body);
  }
  const body = await files.read(key);
  reply.header('Content-Length', size);
  return reply.send(body);
}

/** Bytes out: downloads (one file or a zip), previews, thumbnails; and the storage summary. */
export const fileRoutes: FastifyPluginAsyncZod = async (app) => {
  const { drive } = app.services;

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
      if (result.kind === 'file') {
        return sendStored(request, reply, drive.files, result.entry, result.key, { inline: false, contentType: result.entry.mime ?? OCTET_STREAM });
      }
      protectiveHeaders(reply, true);
      reply.header('Content-Disposition', contentDisposition('attachment', result.name));
      return reply.type('application/zip').send(result.stream);
    },
  );

  app.get(
    '/file-entries/:id/preview',
    {
      compress: false,
      schema: {
        tags,
        summary: 'Show a file: images, video, audio, PDF and text inline; markup (HTML, SVG) and other kinds as an attachment',
        params: entryParams,
        response: fileResponses,
      },
    },
    async (request, reply) => {
      const { entry, key } = await drive.files.openable(currentActor(request), request.params.id);
      return sendStored(request, reply, drive.files, entry, key, previewMode(entry.mime ?? OCTET_STREAM, entry.type));
    },
  );

  app.get(
    '/file-entries/:id/thumbnail',
    { compress: false, schema: { tags, summary: 'A WebP thumbnail of an image (made on demand if missing)', params: entryParams, response: { 200: z.any() } } },
    async (request, reply) => {
      const { entry } = await drive.files.openable(currentActor(request), request.params.id);
      const key = await drive.thumbnails.ensure(entry);
      if (!key) throw NotFound('This file has no thumbnail.');
      protectiveHeaders(reply, false);
      return reply.type('image/webp').send(await drive.files.read(key));
    },
  );

  app.get(
    '/user/space-usage',
    { schema: { tags, summary: 'Storage summary: bytes used and available (null: unlimited)', response: { 200: spaceUsageResponse } } },
    async (request) => drive.entries.spaceUsage(currentActor(request)),
  );
};
