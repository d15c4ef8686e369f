import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { pageHeaders } from './page-headers.js';
import { chunkPreloader, withRenderedPage, type PageRenderer, type RenderedPage } from './page-render.js';

/** Paths that belong to the API: they never fall back to the app's index.html. */
export const API_PREFIXES = ['/api/', '/auth/', '/secure/'];

const DAV_PATH = /^\/dav(\/|$)/;

const API_ROOTS = API_PREFIXES.map((prefix) => prefix.slice(0, -1));

export const isApiPath = (url: string) => API_PREFIXES.some((prefix, i) => url === API_ROOTS[i] || url.startsWith(prefix));

/** A request URL's path, without its query string (read by every request's hooks: no array, no second string). */
export function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

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
  /** Writes the markup of the public screens into the page (src/entry-server.tsx), with the caller's bootstrap data. */
  renderPage?: PageRenderer | null;
}

export async function registerWeb(
  app: FastifyInstance,
  webDistDir: string,
  humanCheckEnabled: () => Promise<boolean>,
  { bootstrapFor, transforms = {}, storeOrigins = [], renderPage }: WebOptions = {},
): Promise<void> {
  const indexFile = path.join(webDistDir, 'index.html');
  const built = fs.existsSync(indexFile);
  // Read once: the built page does not change under a running server.
  const template = built ? fs.readFileSync(indexFile, 'utf8') : '';
  const preloadsOf = chunkPreloader(webDistDir);

  // Every answer that is not the API's (pages, assets, the worker, the manifest) carries the page headers.
  // A callback hook, so that an API answer (nearly every request) costs no promise here.
  app.addHook('onSend', function pageHeadersOnSend(request, reply, payload, done) {
    const url = pathOf(request.url);
    if (isApiPath(url)) return done(null, payload);
    // WebDAV answers (files and XML for file managers) keep the strict headers but never load the
    // human check's script: no need to read its settings on each of a sync's thousands of requests.
    (DAV_PATH.test(url) ? Promise.resolve(false) : humanCheckEnabled()).then(
      (humanCheck) => {
        reply.headers(pageHeaders({ humanCheck, storeOrigins }));
        done(null, payload);
      },
      (error: Error) => done(error),
    );
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
    const bootstrapJson = await bootstrapFor(request);
    const rendered = await renderScreen(request, bootstrapJson);
    const page = rendered ? withRenderedPage(html, rendered, preloadsOf(rendered.modules)) : html;
    return reply.type('text/html; charset=utf-8').send(withBootstrap(page, bootstrapJson));
  };

  /**
   * The screen's markup for a public route (null for the others, or when rendering fails: the
   * page is then the static shell and the browser renders it, as before). The API calls a screen
   * needs go to this process as the caller (their cookies), through the same routes and policy.
   */
  const renderScreen = async (request: FastifyRequest, bootstrapJson: string): Promise<RenderedPage | null> => {
    if (!renderPage) return null;
    const get = async (apiPath: string) => {
      const headers: Record<string, string> = {};
      if (request.headers.cookie) headers.cookie = request.headers.cookie;
      if (request.headers['accept-language']) headers['accept-language'] = request.headers['accept-language'];
      const answer = await app.inject({ method: 'GET', url: `/api/v1/${apiPath}`, headers });
      if (answer.statusCode !== 200) throw new Error(`GET ${apiPath} answered ${answer.statusCode}`);
      return answer.json<unknown>();
    };
    try {
      return await renderPage({
        url: request.url,
        bootstrap: JSON.parse(bootstrapJson),
        cookies: request.headers.cookie ?? '',
        mobile: /\bMobile\b/.test(request.headers['user-agent'] ?? ''),
        get,
      });
    } catch (error) {
      request.log.warn({ err: error }, 'server render failed; sending the static shell');
      return null;
    }
  };

  for (const [route, transform] of Object.entries(transforms)) {
    app.get(route, { schema: { hide: true } }, (request, reply) => sendApp(request, reply, transform));
  }

  // The root is a directory to the static plugin; it is the app's entry to us.
  app.get('/', { schema: { hide: true } }, (request, reply) => sendApp(request, reply));

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const url = pathOf(request.url);
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
