import { hydrate } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { matchRoutes } from 'react-router-dom';
import type { RouteObject } from 'react-router-dom';

// Shared with the server's renderer (src/entry-server.tsx); kept apart from its route table so the
// browser's entry does not load the modules of the screens it prefetches for.

/** Marks #root as the server's markup: the browser hydrates it rather than rendering from nothing. */
export const SERVER_RENDERED_ATTRIBUTE = 'data-server-rendered';
/** The id of the JSON block holding the queries the server rendered with (react-query's dehydrated state). */
export const SERVER_QUERIES_ID = 'server-queries';

/** Marks #root as the server's preview of a screen (the drive's frame): the browser's first render replaces it. */
export const SERVER_PREVIEW_ATTRIBUTE = 'data-server-preview';

/** Whether the server wrote the page's markup into #root, to hydrate. */
export function isServerRendered(root: HTMLElement): boolean {
  return root.hasAttribute(SERVER_RENDERED_ATTRIBUTE);
}

/** Whether #root holds the server's preview of the screen. */
export function isServerPreview(root: HTMLElement): boolean {
  return root.hasAttribute(SERVER_PREVIEW_ATTRIBUTE);
}

/**
 * The queries the server rendered with go into the cache before the first render, so that render
 * reads what the server read and produces the same markup (a hydration mismatch otherwise).
 */
export function takeServerQueries(client: QueryClient): void {
  const element = document.getElementById(SERVER_QUERIES_ID);
  if (!element) return;
  element.remove();
  try {
    hydrate(client, JSON.parse(element.textContent ?? ''));
  } catch {
    // A damaged block: the screen asks the API as it would without one.
  }
}

/**
 * Loads the code of the screens the current address shows before the router starts. A lazy route
 * still to load would render the router's fallback (a spinner) in place of the server's markup.
 * The route objects are completed in place, as the router itself does once a lazy route loads.
 */
export async function loadInitialRoutes(routes: RouteObject[], location: Pick<Location, 'pathname' | 'search' | 'hash'>): Promise<void> {
  const matches = matchRoutes(routes, location) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      const loaded = await route.lazy();
      Object.assign(route, loaded);
      delete route.lazy;
    }),
  );
}
