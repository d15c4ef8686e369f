import { StrictMode, type ReactNode } from 'react';
import { prerender } from 'react-dom/static';
import { dehydrate, hashKey, QueryClientProvider } from '@tanstack/react-query';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom';
import { createQueryClient } from './api/query-client';
import { queryKeys } from './api/query-keys';
import type { Bootstrap } from './api/bootstrap-types';
import { setServerCookies } from './api/cookies';
import { setBootstrap } from './features/bootstrap/store';
import { setServerViewport } from './ui/use-media-query';
import { createStore, Provider as JotaiProvider } from 'jotai';
import { sidebarOpenAtom } from './features/navigation/sidebar-state';
import { syncLanguage } from './i18n/i18n';
import { resolveActiveTheme } from './features/themes/theme-rule';
import { routes } from './app/routes';
import { serverRouteFor, type ApiGet } from './app/server-rendered';
import type { PageRenderInput, RenderedPage } from '../common/page-render';

/**
 * The server's renderer of the public screens (issue 38.1), built by `vite build --ssr` into
 * dist/ssr/entry-server.js and loaded by server/plugins/page-render.ts. The same components and
 * route table as the browser, with the caller's bootstrap data (language, translations, branding,
 * settings): what it writes is what the browser's first render produces, which React hydrates.
 */
export type RenderInput = PageRenderInput<{ data: Bootstrap }, ApiGet>;
export type { RenderedPage };

// Holds no request's state: it matches the address and loads the screens' code (once).
const handler = createStaticHandler(routes);

/** The width a preview is laid out for on a phone (a common one; only the breakpoints matter). */
const MOBILE_WIDTH = 412;

let queue: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const result = queue.then(work, work);
  queue = result.catch(() => undefined);
  return result;
}

/**
 * The whole markup, lazy parts included (the language menu's code loads on demand: renderToString
 * would write its fallback and leave React in the browser to report the boundary as a recoverable
 * error). Any error while rendering fails the whole page, which then goes out as the static shell.
 */
async function renderComplete(element: ReactNode): Promise<string> {
  let failed: unknown = null;
  const { prelude } = await prerender(element, {
    // Never outline a large Suspense boundary (its content would follow at the end with an inline script to move
    // it in, which the CSP refuses: the drive's listing stayed hidden behind its fallback).
    progressiveChunkSize: Number.POSITIVE_INFINITY,
    onError: (error) => {
      failed ??= error;
    },
  });
  const html = await new Response(prelude).text();
  if (failed) throw failed instanceof Error ? failed : new Error(String(failed));
  return html;
}

export async function renderPage({ url, bootstrap, cookies, mobile = false, get }: RenderInput): Promise<RenderedPage | null> {
  const data = bootstrap.data;
  const address = new URL(url, 'http://server.invalid');
  const matched = serverRouteFor(address.pathname, data);
  if (!matched) return null;
  const { route, params } = matched;

  const client = createQueryClient();
  setBootstrap(client, data);
  await route.prefetch?.(client, get, { params, cookies });
  // A query the server could not answer renders differently here (an error) than in the browser (still
  // loading, then asking again): the page goes out as the static shell instead.
  if (
    client
      .getQueryCache()
      .getAll()
      .some((query) => query.state.status !== 'success')
  )
    return null;

  const context = await handler.query(new Request(address.href));
  // A redirect or an error (the guard sent the visitor on): the browser deals with it as before.
  if (context instanceof Response || context.errors) return null;
  const router = createStaticRouter(handler.dataRoutes, context);

  // This render's own atoms (none leaks into the next request's); the drive's sidebar starts as the browser's would:
  // closed on a phone (sidebar-state.ts reads the window's width, which the server has not).
  const store = createStore();
  if (route.preview) store.set(sidebarOpenAtom, !mobile);
  // The cookies, language and viewport are the module state the components read as they render: one render at a time.
  const html = await oneAtATime(async () => {
    setServerCookies(cookies);
    // The language before the first line is translated (translate() reads it, not only useTrans), as src/main.tsx does.
    syncLanguage(data.i18n.language, data.i18n.lines);
    // A hydrated screen renders as the browser's hydration does (no viewport known: wide); a preview as the visitor's device will.
    setServerViewport(route.preview && mobile ? MOBILE_WIDTH : null);
    try {
      return await renderComplete(
        // The same tree as src/main.tsx (providers render no markup), so React's ids match on hydration.
        <StrictMode>
          <QueryClientProvider client={client}>
            <JotaiProvider store={store}>
              {/* hydrate={false}: no inline script (the CSP allows none); the browser's router starts from the address. */}
              <StaticRouterProvider router={router} context={context} hydrate={false} />
            </JotaiProvider>
          </QueryClientProvider>
        </StrictMode>,
      );
    } finally {
      setServerCookies(null);
      setServerViewport(null);
    }
  });
  // Only the prefetched queries travel: the bootstrap data is in the page already.
  const bootstrapHash = hashKey(queryKeys.bootstrap);
  const queries = JSON.stringify(dehydrate(client, { shouldDehydrateQuery: (query) => query.state.status === 'success' && query.queryHash !== bootstrapHash }));
  const theme = resolveActiveTheme(data, null);
  return {
    html,
    queries,
    lang: data.i18n.language,
    htmlStyle: theme
      ? [...Object.entries(theme.colors).map(([name, value]) => `${name}: ${value}`), `color-scheme: ${theme.is_dark ? 'dark' : 'light'}`].join('; ')
      : '',
    htmlClass: theme?.is_dark ? 'dark' : '',
    title: data.branding.site_name,
    modules: route.modules,
    preview: !!route.preview,
  };
}
