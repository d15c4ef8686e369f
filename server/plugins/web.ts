import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { pageHeaders } from './page-headers.js';

/** Paths that belong to the API: they never fall back to the app's index.html. */
export const API_PREFIXES = ['/api/', '/auth/', '/secure/'];

const DAV_PATH = /^\/dav(\/|$)/;

export const isApiPath = (url: string) => API_PREFIXES.some((prefix) => url === prefix.slice(0, -1) || url.startsWith(prefix));

/**
 * Serves the built browser app: hashed assets cached for a year, everything
 * else revalidated, and index.html for app routes (the router decides what a
 * path shows, including its own 404 page).
 */
/** Rewrites index.html for one app route before it is sent (e.g. a custom page's head tags). */
export type IndexTransform = (request: FastifyRequest, html: string) => Promise<string>;

export interface WebOptions {
  /** The caller's bootstrap data, written into the page so the first render needs no round trip. */
  bootstrapFor?: (request: FastifyRequest) => Promise<string>;
  /** Per-route rewrites of the page, keyed by route pattern. */
  transforms?: Record<string, IndexTransform>;
  /** The object store's origins, which pages may connect to (direct uploads, redirected downloads). */
  storeOrigins?: string[];
}

export async function registerWeb(
  app: FastifyInstance,
  webDistDir: string,
  humanCheckEnabled: () => Promise<boolean>,
  { bootstrapFor, transforms = {}, storeOrigins = [] }: WebOptions = {},
): Promise<void> {
  const indexFile = path.join(webDistDir, 'index.html');
  const built = fs.existsSync(indexFile);
  // Read once: the built page does not change under a running server.
  const template = built ? fs.readFileSync(indexFile, 'utf8') : '';

  // Every answer that is not the API's (pages, assets, the worker, the manifest) carries the page headers.
  app.addHook('onSend', async (request, reply, payload) => {
    const url = request.url.split('?')[0] ?? '/';
    if (isApiPath(url)) return payload;
    // WebDAV answers (files and XML for file managers) keep the strict headers but never load the
    // human check's script: no need to read its settings on each of a sync's thousands of requests.
    const humanCheck = DAV_PATH.test(url) ? false : await humanCheckEnabled();
    reply.headers(pageHeaders({ humanCheck, storeOrigins }));
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

  /**
   * The page with the caller's bootstrap data written in (a JSON data block,
   * which the CSP does not treat as script), so the first screen renders
   * without a round trip. It is personal, hence private. The service worker
   * precaches the plain index.html, which the app handles by fetching.
   */
  const sendApp = async (request: FastifyRequest, reply: FastifyReply, transform?: IndexTransform) => {
    if (!built) return reply.code(404).send({ message: 'The web app is not built yet: run `npm run build`.' });
    const html = transform ? await transform(request, template) : template;
    reply.header('Cache-Control', bootstrapFor ? 'private, no-cache' : 'no-cache');
    if (!bootstrapFor) return reply.type('text/html; charset=utf-8').send(html);
    return reply.type('text/html; charset=utf-8').send(withBootstrap(html, await bootstrapFor(request)));
  };

  for (const [route, transform] of Object.entries(transforms)) {
    app.get(route, { schema: { hide: true } }, (request, reply) => sendApp(request, reply, transform));
  }

  // The root is a directory to the static plugin; it is the app's entry to us.
  app.get('/', { schema: { hide: true } }, (request, reply) => sendApp(request, reply));

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const url = request.url.split('?')[0] ?? '/';
    const wantsPage = (request.method === 'GET' || request.method === 'HEAD') && !isApiPath(url) && !path.extname(url);
    if (!wantsPage) return reply.code(404).send({ message: 'Not found.' });
    return sendApp(request, reply);
  });
}

/** `json`: the bootstrap response's JSON. `<` escaped so no value can close the element; the id is what the app looks for. */
export function withBootstrap(html: string, bootstrapJson: string): string {
  const json = bootstrapJson.replace(/</g, '\\u003c');
  const block = `<script type="application/json" id="bootstrap-data">${json}</script>`;
  // Spliced by index, not String.replace: a `$'`, `$&` or `` $` `` in the data (a name, an admin's CSS) would be read
  // as a replacement pattern and copy parts of the page into it.
  const at = html.indexOf('</head>');
  return at === -1 ? `${block}${html}` : `${html.slice(0, at)}${block}${html.slice(at)}`;
}
