import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Metrics } from './metrics.js';

/** The route pattern Fastify matched (`/api/v1/drive/file-entries/:id`), never the URL: ids and tokens stay out of labels. */
export const routeOf = (request: FastifyRequest): string => request.routeOptions.url ?? '(unmatched)';

/**
 * The kind of a received file body, from its content type: what uploads look
 * like on the wire whatever route takes them (and other helpers may move routes).
 */
function uploadVia(request: FastifyRequest): string | null {
  if (request.method !== 'POST' && request.method !== 'PUT' && request.method !== 'PATCH') return null;
  const type = request.headers['content-type'] ?? '';
  if (type.startsWith('multipart/form-data')) return 'multipart';
  if (type.startsWith('application/offset+octet-stream')) return 'tus';
  if (request.method === 'PUT' && request.url.startsWith('/dav')) return 'webdav';
  return null;
}

/** A file's bytes leave with a Content-Disposition (drive, links, zips) or as a WebDAV read. */
const sendsFile = (request: FastifyRequest, reply: FastifyReply): boolean =>
  reply.hasHeader('content-disposition') || (request.method === 'GET' && request.url.startsWith('/dav'));

/** Counts what leaves on the connection, after compression: the bytes the user waits for. */
function countWrites(reply: FastifyReply, add: (n: number) => void): void {
  const raw = reply.raw;
  const write = raw.write.bind(raw) as (...args: unknown[]) => boolean;
  const end = raw.end.bind(raw) as (...args: unknown[]) => typeof raw;
  const size = (chunk: unknown) => (typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk instanceof Uint8Array ? chunk.byteLength : 0);
  raw.write = ((chunk: unknown, ...rest: unknown[]) => {
    add(size(chunk));
    return write(chunk, ...rest);
  }) as typeof raw.write;
  raw.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if (chunk !== undefined && typeof chunk !== 'function') add(size(chunk));
    return end(chunk, ...rest);
  }) as typeof raw.end;
}

/** A file's bytes on their way out are counted as they are written (onSend, metrics on). */
export function countDownload(request: FastifyRequest, reply: FastifyReply, metrics: Metrics): void {
  if (reply.statusCode < 300 && sendsFile(request, reply)) countWrites(reply, (n) => metrics.downloadBytes.inc(n));
}

/** A request answered: its duration by route and status, a 5xx as an error, an upload's bytes. */
export function observeAnswer(request: FastifyRequest, reply: FastifyReply, metrics: Metrics): void {
  const status = reply.statusCode;
  metrics.requestDuration.observeRoute(request.method, routeOf(request), String(status), reply.elapsedTime / 1000);
  if (status >= 500) metrics.serverError('request');
  if (status < 400) {
    const via = uploadVia(request);
    if (via) {
      const length = Number(request.headers['content-length']);
      if (length > 0) metrics.uploadBytes.inc({ via }, length);
    }
  }
}
