import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { authenticateDav, type DavAuthDeps } from './auth.js';
import { ProvenCredentials } from './proven-credentials.js';
import { DAV_PREFIX, type DavRequest } from './request.js';
import type { WebDavService } from './service.js';
import { lingerOnClose } from './linger.js';
import { DavXmlReader, XmlError } from './xml.js';

export const DAV_METHODS = ['PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK'] as const;
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PROPFIND']);
/** XML bodies (PROPFIND, PROPPATCH, LOCK) are small; more than this is refused (413). */
export const MAX_XML_BYTES = 1024 * 1024;
const REALM = 'Basic realm="Drive WebDAV", charset="UTF-8"';

/**
 * A small body (the XML methods', MKCOL's), read as it arrives and handed to
 * `take` piece by piece, never held whole. When `take` throws (the XML is
 * refused), the rest is read and dropped, at most up to the cap, so the answer
 * goes out on a connection still in step with the client. A body over the
 * cap is not read further: `abandoned` is then set and the connection closes
 * after the 413.
 */
class SmallBody {
  abandoned = false;

  constructor(
    private readonly stream: IncomingMessage,
    private readonly declaredLength: number,
  ) {}

  async read(take: (chunk: string) => void): Promise<void> {
    const tooLarge = () => {
      this.abandoned = true;
      return new XmlError('The request body is too large', 'too-large');
    };
    if (this.declaredLength > MAX_XML_BYTES) throw tooLarge();
    const stream = this.stream;
    if (stream.readableEnded) return;
    const decoder = new TextDecoder();
    let size = 0;
    let failure: unknown = null;
    const feed = (text: string) => {
      if (failure || !text) return;
      try {
        take(text);
      } catch (error) {
        failure = error;
      }
    };
    await new Promise<void>((resolve, reject) => {
      const done = (error?: unknown) => {
        stream.off('data', onData).off('end', onEnd).off('error', done).off('close', onClose);
        if (error) reject(error);
        else resolve();
      };
      const onData = (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_XML_BYTES) {
          failure = tooLarge();
          stream.pause();
          done();
          return;
        }
        feed(decoder.decode(chunk, { stream: true }));
      };
      const onEnd = () => {
        feed(decoder.decode());
        done();
      };
      const onClose = () => done(new Error('the client went away before the body ended'));
      stream.on('data', onData).on('end', onEnd).on('error', done).on('close', onClose);
    });
    if (failure) throw failure;
  }
}

/**
 * The WebDAV endpoint at /dav (see README "Mount the drive"). Bodies are
 * never parsed by Fastify: a PUT streams from the socket to the disk. Errors
 * are WebDAV's own status codes and XML, not the JSON error shape.
 */
export interface WebDavRoutesDeps extends Omit<DavAuthDeps, 'proven'> {
  webdav: Pick<WebDavService, 'handle'>;
}

export async function webdavRoutes(app: FastifyInstance, deps: WebDavRoutesDeps): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
  const proven = new ProvenCredentials();

  /**
   * Before an answer goes out on a request whose body has not all arrived (a
   * PUT refused before its bytes were read, a chunked body that may never
   * end): the connection closes after the answer. Draining could wait forever
   * on a client that stopped sending when it saw the refusal, and keeping the
   * connection would read its next request as the rest of this body.
   */
  const settleBody = (request: FastifyRequest, reply: FastifyReply, abandoned = false) => {
    // `complete` is Node's: every byte of the message parsed (light-my-request has no such field).
    if (abandoned || request.raw.complete === false) {
      reply.header('Connection', 'close');
      lingerOnClose(request.raw.socket);
    }
    if (!request.raw.readableEnded) request.raw.resume();
  };

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const caller = await authenticateDav(
      { accessTokens: deps.accessTokens, permissionsOf: deps.permissionsOf, rateLimiter: deps.rateLimiter, proven },
      request.headers.authorization,
      request.ip,
    );
    if (!caller.ok) {
      settleBody(request, reply);
      if (caller.status === 429) return reply.code(429).headers(caller.error.headers).send('');
      return reply.code(401).header('WWW-Authenticate', REALM).send('');
    }
    if (!READ_METHODS.has(request.method) && !caller.scopes.includes('write')) {
      settleBody(request, reply);
      return reply.code(403).send('');
    }
    const body = new SmallBody(request.raw, Number(request.headers['content-length'] ?? 0));
    const davRequest: DavRequest = {
      method: request.method,
      url: request.raw.url ?? request.url,
      headers: request.headers,
      host: request.host,
      stream: request.raw,
      xml: async () => {
        const reader = new DavXmlReader();
        await body.read((chunk) => reader.write(chunk));
        return reader.end();
      },
      hasBody: async () => {
        let any = false;
        await body.read(() => {
          any = true;
        });
        return any;
      },
    };
    const answer = await deps.webdav.handle(caller.actor, davRequest);
    settleBody(request, reply, body.abandoned);
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
