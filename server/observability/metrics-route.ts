import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { addressAllowed } from './addresses.js';
import type { Metrics } from './metrics.js';
import type { EffectiveObservability } from './settings.js';

const sameToken = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

const bearer = (request: FastifyRequest): string | null => {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match ? match[1]! : null;
};

/**
 * GET /metrics in Prometheus text format, for a scraper holding the token or
 * calling from an allowed address; never for the public (the peers' lesson:
 * a site's internals are not for anyone who guesses the path). Outside the
 * API: no session, no XSRF.
 */
export function metricsRoute(app: FastifyInstance, metrics: Metrics, effective: () => Promise<EffectiveObservability>): void {
  // No credentials: 401 (a scraper must authenticate); a token that is not the one, or none configured: 403.
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const { metricsToken, metricsAllow } = await effective();
    const token = bearer(request);
    const allowedHere = addressAllowed(request.ip, metricsAllow);
    const tokenOk = token !== null && metricsToken !== null && sameToken(token, metricsToken);
    if (!tokenOk && !allowedHere) {
      void reply.header('Cache-Control', 'no-store');
      if (token === null) {
        return reply.code(401).header('WWW-Authenticate', 'Bearer realm="metrics"').send({ message: 'Send the metrics token as a bearer token.' });
      }
      return reply.code(403).send({
        message:
          metricsToken || metricsAllow.length
            ? 'This token or address may not read the metrics.'
            : 'Metrics are not open to any scraper: set a metrics token or allowed addresses.',
      });
    }
    return reply
      .header('Content-Type', metrics.contentType)
      .header('Cache-Control', 'no-store')
      .send(await metrics.text());
  });
}
