import { handleTunnelRequest } from '@sentry/node';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ObservabilityConfig } from './config.js';
import type { EffectiveObservability } from './settings.js';

/** Where the page's and the worker's SDK post their envelopes: this site, so the CSP stays 'self' and no third party sees the visitor. */
export const TUNNEL_PATH = '/api/v1/observability/envelope';

const clientConfig = z.object({
  dsn: z.string().nullable().describe('The DSN errors are reported under; null: reporting is off'),
  tunnel: z.string().describe('Where the SDK posts its envelopes (this site)'),
  release: z.string(),
  environment: z.string(),
  sampleRate: z.number().min(0).max(1),
  tracesSampleRate: z.number().min(0).max(1),
  tracing: z.boolean().describe('Whether the server exports traces: the page then sends traceparent on its API calls'),
});

/**
 * The browser's reporting settings (public: guests' errors count too; a DSN
 * is meant to be public) and the tunnel that forwards its envelopes to the
 * configured DSN only.
 */
export function clientRoutes(app: FastifyInstance, config: ObservabilityConfig, effective: () => Promise<EffectiveObservability>): void {
  app.get(
    '/api/v1/observability/client',
    {
      schema: {
        tags: ['Observability'],
        summary: "The app's and its worker's error-reporting and tracing settings",
        response: { 200: clientConfig },
      },
    },
    async (_request, reply) => {
      const current = await effective();
      void reply.header('Cache-Control', 'public, max-age=300');
      return {
        dsn: current.sentryDsn,
        tunnel: TUNNEL_PATH,
        release: config.release,
        environment: config.environment,
        sampleRate: current.sampleRate,
        tracesSampleRate: current.tracesSampleRate,
        tracing: current.otlpEndpoint !== null,
      };
    },
  );

  app.register(async (scope) => {
    // The SDKs post envelopes as text/plain or application/x-sentry-envelope: kept as bytes.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    scope.post(TUNNEL_PATH, { schema: { hide: true }, config: { xsrf: false } }, async (request, reply) => {
      const { sentryDsn } = await effective();
      if (!sentryDsn) return reply.code(404).send({ message: 'Error reporting is off.' });
      const body = request.body instanceof Buffer ? request.body : Buffer.alloc(0);
      const forwarded = await handleTunnelRequest(
        new Request(`http://tunnel${TUNNEL_PATH}`, { method: 'POST', body, headers: { 'content-length': String(body.length) } }),
        { allowedDsns: [sentryDsn] },
      );
      return reply.code(forwarded.status).send(Buffer.from(await forwarded.arrayBuffer()));
    });
  });
}
