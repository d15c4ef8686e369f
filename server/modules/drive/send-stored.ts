import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FileEntryRow } from '../../db/types.js';
import { NotFound, RangeNotSatisfiable } from '../../lib/errors.js';
import type { Download, DriveFiles } from './files.js';
import { OCTET_STREAM } from './kinds.js';
import type { Thumbnails } from './thumbnails.js';
import { contentDisposition, etagOf, isNotModified, parseRange, protectiveHeaders, rangeApplies } from './http.js';

export interface SendOptions {
  inline: boolean;
  contentType: string;
  /** A download (not a preview): it may be redirected to the store whatever its type. */
  download?: boolean;
}

/** A download as the browser gets it, the drive's and a share link's alike: an attachment, never shown inline. */
export async function sendDownload(request: FastifyRequest, reply: FastifyReply, files: DriveFiles, download: Download) {
  if (download.kind === 'file') {
    return sendStored(request, reply, files, download.entry, download.key, {
      inline: false,
      contentType: download.entry.mime ?? OCTET_STREAM,
      download: true,
    });
  }
  protectiveHeaders(reply, true);
  reply.header('Content-Disposition', contentDisposition('attachment', download.name));
  return reply.type('application/zip').send(download.stream);
}

/** One stored file with Range, validators and a safe disposition (the drive's routes and share links). */
export async function sendStored(request: FastifyRequest, reply: FastifyReply, files: DriveFiles, entry: FileEntryRow, key: string, options: SendOptions) {
  const size = Number(entry.file_size);
  const etag = etagOf(entry.sha256);
  const lastModified = new Date(entry.updated_at);
  const sandbox = !options.inline || options.contentType.startsWith('text/');
  const disposition = contentDisposition(options.inline ? 'inline' : 'attachment', entry.name);
  // A preview that needs the sandbox (text) must keep headers only the app sends: it streams.
  if (files.signedDownload && (options.download || !sandbox)) {
    const url = await files.signedDownload(key, {
      contentDisposition: storeDisposition(options.inline, entry.name, disposition),
      contentType: options.contentType,
    });
    reply.header('Cache-Control', 'no-store');
    return reply.redirect(url, 302);
  }
  protectiveHeaders(reply, sandbox);
  reply.header('Accept-Ranges', 'bytes');
  if (etag) reply.header('ETag', etag);
  reply.header('Last-Modified', lastModified.toUTCString());
  reply.header('Content-Disposition', disposition);
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
  const body = await files.read(key, undefined, size);
  reply.header('Content-Length', size);
  return reply.send(body);
}

/** An image's WebP thumbnail, made on demand (the drive's routes and share links). */
export async function sendThumbnail(reply: FastifyReply, drive: { files: DriveFiles; thumbnails: Thumbnails }, entry: FileEntryRow) {
  const key = await drive.thumbnails.ensure(entry);
  if (!key) throw NotFound('This file has no thumbnail.');
  protectiveHeaders(reply, false);
  return reply.type('image/webp').send(await drive.files.read(key));
}

/**
 * The disposition a presigned URL asks the store for: a plain ASCII name goes
 * without the RFC 8187 form (fewer reserved characters in a signed query
 * string, which some S3-compatible stores canonicalise differently).
 */
function storeDisposition(inline: boolean, name: string, full: string): string {
  return /^[\x20-\x7e]+$/.test(name) && !/["\\%;'()!*]/.test(name) ? `${inline ? 'inline' : 'attachment'}; filename="${name}"` : full;
}
