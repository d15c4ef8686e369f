import { QueryClientProvider } from '@tanstack/react-query';
import type { QueryKey } from '@tanstack/react-query';
import { cleanup, render, waitFor } from '@testing-library/react';
import { createMemoryRouter, matchRoutes, RouterProvider } from 'react-router-dom';
import type { Bootstrap } from '../../src/api/bootstrap-types';
import { createQueryClient } from '../../src/api/query-client';
import { queryKeys } from '../../src/api/query-keys';
import { routes } from '../../src/app/routes';
import { makeBootstrap } from './fixtures';

/**
 * The whole app (its real route table) at `path`, with bootstrap data — and
 * any other query answers a test wants to take off the network — already in
 * the query cache. Returns the router so tests can read where it went.
 */
export function renderApp(path: string, data: Bootstrap, cached: [QueryKey, unknown][] = []) {
  const client = createQueryClient();
  client.setQueryData(queryKeys.bootstrap, data);
  for (const [key, value] of cached) client.setQueryData(key, value);
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

/**
 * Loads the code of every lazy screen on the way to each path, and renders
 * the first path once (for a guest), as a hook does before the tests. The first import of a screen compiles it (seconds on
 * a busy machine); without this, whichever test happens to run first pays
 * for it inside its waits, and fails or passes by the order the tests ran in.
 */
export async function loadRoutes(...paths: string[]): Promise<void> {
  const loads = new Set<() => Promise<unknown>>();
  for (const path of paths) {
    for (const { route } of matchRoutes(routes, path) ?? []) {
      if (typeof route.lazy === 'function') loads.add(route.lazy as () => Promise<unknown>);
    }
  }
  await Promise.all([...loads].map((load) => load()));
  // The first render of a file (React, jsdom and the queries warming up) is slower than any after it:
  // that too is the hook's, not whichever test happens to run first.
  const router = renderApp(paths[0] ?? '/', makeBootstrap());
  await waitFor(
    () => {
      if (router.state.navigation.state !== 'idle' || !document.body.textContent) throw new Error('still rendering');
    },
    { timeout: 30_000 },
  );
  cleanup();
}
