import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { authenticateDav } from './auth.js';
import { ProvenCredentials } from './proven-credentials.js';
import { DAV_PREFIX, type DavRequest } from './service.js';

export const DAV_METHODS = ['PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK'] as const;
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PROPFIND']);
/** XML bodies (PROPFIND, PROPPATCH, LOCK) are small; more than this is refused. */
const MAX_XML_BYTES = 1024 * 1024;
const REALM = 'Basic realm="Drive WebDAV", charset="UTF-8"';

async function readText(stream: Readable): Promise<string> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > MAX_XML_BYTES) throw new Error('too large');
    parts.push(chunk as Buffer);
  }
  return Buffer.concat(parts).toString('utf8');
}

/**
 * The WebDAV endpoint at /dav (see README "Mount the drive"). Bodies are
 * never parsed by Fastify: a PUT streams from the socket to the disk. Errors
 * are WebDAV's own status codes and XML, not the JSON error shape.
 */
export async function webdavRoutes(app: FastifyInstance): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
  const proven = new ProvenCredentials();

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const caller = await authenticateDav(
      { accessTokens: app.services.accessTokens, permissionsOf: app.services.webdavPermissionsOf, rateLimiter: app.services.rateLimiter, proven },
      request.headers.authorization,
      request.ip,
    );
    if (!caller.ok) {
      request.raw.resume();
      if (caller.status === 429) return reply.code(429).headers(caller.error.headers).send('');
      return reply.code(401).header('WWW-Authenticate', REALM).send('');
    }
    if (!READ_METHODS.has(request.method) && !caller.scopes.includes('write')) {
      request.raw.resume();
      return reply.code(403).send('');
    }
    const davRequest: DavRequest = {
      method: request.method,
      url: request.raw.url ?? request.url,
      headers: request.headers,
      stream: request.raw,
      text: () => readText(request.raw),
    };
    const answer = await app.services.webdav.handle(caller.actor, davRequest);
    if (!request.raw.readableEnded) request.raw.resume();
    reply.code(answer.status);
    if (answer.headers) reply.headers(answer.headers);
    if (answer.body === undefined) return reply.send();
    return reply.send(answer.body);
  };

  for (const url of [DAV_PREFIX, `${DAV_PREFIX}/*`]) {
    app.route({
      method: ['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS', ...DAV_METHODS],
      url,
      exposeHeadRoute: false,
      schema: { hide: true },
      compress: false,
      handler,
    });
  }
}
