import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';

/**
 * @fastify/multipart for the routes of `scope` only (an encapsulated plugin
 * holding the few routes that take a multipart body: plain uploads, a file
 * drop, an avatar, a logo). Registered for the whole app, it ran an async
 * onRequest hook (a promise and a 'close' listener) and an async onResponse
 * hook on every request, listings included (issue 38 §3). Elsewhere a
 * multipart body is refused as an unsupported media type (415).
 */
export async function acceptMultipart(scope: FastifyInstance): Promise<void> {
  await scope.register(fastifyMultipart, { limits: { fileSize: scope.initialConfig.bodyLimit, files: 1 } });
}
