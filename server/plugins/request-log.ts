import { LogController, type FastifyInstance } from 'fastify';

/** A request slower than this is worth an info line even when per-request logs are off. */
export const SLOW_REQUEST_MS = 1000;

/**
 * Fastify's own two lines per request (incoming, completed) are left out;
 * its error lines stay. installRequestLog writes the one line instead.
 */
export class QuietRequestLog extends LogController {
  override incomingRequest(): void {}
  override requestCompleted(): void {}
}

/**
 * One line per finished request instead of Fastify's two: at debug level
 * (LOG_LEVEL=debug turns them on), raised to info when the request was slow
 * and to warn when it failed on our side, so a normal day's log holds starts,
 * warnings, errors and slow requests only.
 */
/** A share link's id is as good as a key: the log keeps only its first characters. */
export const redactUrl = (url: string): string => url.replace(/(\/shared-links\/)([A-Za-z0-9_-]{4})[A-Za-z0-9_-]*/g, '$1$2…');

/** Levels at which the per-request debug line is dropped: it is then not even made (its URL redacted by a regex). */
const ABOVE_DEBUG = new Set(['info', 'warn', 'error', 'fatal', 'silent']);

export function installRequestLog(app: FastifyInstance): void {
  // A callback hook: an async one costs a promise and a turn of the microtask queue on every request.
  app.addHook('onResponse', function logRequest(request, reply, done) {
    const ms = reply.elapsedTime;
    const failed = reply.statusCode >= 500;
    if (failed || ms >= SLOW_REQUEST_MS || !ABOVE_DEBUG.has(request.log.level)) {
      const line = { method: request.method, url: redactUrl(request.url), status: reply.statusCode, ms: Math.round(ms) };
      if (failed) request.log.warn(line, 'request failed');
      else if (ms >= SLOW_REQUEST_MS) request.log.info(line, 'slow request');
      else request.log.debug(line, 'request');
    }
    done();
  });
}
