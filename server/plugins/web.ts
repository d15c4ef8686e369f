import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { pageHeaders } from './page-headers.js';

/** Paths that belong to the API: they never fall back to the app's index.html. */
export const API_PREFIXES = ['/api/', '/auth/', '/secure/'];

export const isApiPath = (url: string) => API_PREFIXES.some((prefix) => url === prefix.slice(0, -1) || url.startsWith(prefix));

/**
 * Serves the built browser app: hashed assets cached for a year, everything
 * else revalidated, and index.html for app routes (the router decides what a
 * path shows, including its own 404 page).
 */
export async function registerWeb(
  app: FastifyInstance,
  webDistDir: string,
  humanCheckEnabled: () => Promise<boolean>,
  storeOrigins: string[] = [],
): Promise<void> {
  const indexFile = path.join(webDistDir, 'index.html');
  const built = fs.existsSync(indexFile);

  // Every answer that is not the API's (pages, assets, the worker, the manifest) carries the page headers.
  app.addHook('onSend', async (request, reply, payload) => {
    if (isApiPath(request.url.split('?')[0] ?? '/')) return payload;
    reply.headers(pageHeaders({ humanCheck: await humanCheckEnabled(), storeOrigins }));
    return payload;
  });

  if (built) {
    await app.register(fastifyStatic, {
      root: webDistDir,
      wildcard: true,
      index: false,
      cacheControl: false,
      setHeaders(res, filePath) {
        const relative = path.relative(webDistDir, filePath);
        res.header('Cache-Control', relative.startsWith(`assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
        if (relative === 'sw.js') res.header('Service-Worker-Allowed', '/');
      },
    });
  }

  const sendApp = (reply: FastifyReply) => {
    if (!built) return reply.code(404).send({ message: 'The web app is not built yet: run `npm run build`.' });
    reply.header('Cache-Control', 'no-cache');
    return reply.type('text/html; charset=utf-8').sendFile('index.html');
  };

  // The root is a directory to the static plugin; it is the app's entry to us.
  app.get('/', { schema: { hide: true } }, (_request, reply) => sendApp(reply));

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const url = request.url.split('?')[0] ?? '/';
    const wantsPage = (request.method === 'GET' || request.method === 'HEAD') && !isApiPath(url) && !path.extname(url);
    if (!wantsPage) return reply.code(404).send({ message: 'Not found.' });
    return sendApp(reply);
  });
}
