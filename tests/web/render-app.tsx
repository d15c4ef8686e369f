import { QueryClientProvider } from '@tanstack/react-query';
import type { QueryKey } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import type { Bootstrap } from '../../src/api/bootstrap-types';
import { createQueryClient } from '../../src/api/query-client';
import { queryKeys } from '../../src/api/query-keys';
import { routes } from '../../src/app/routes';

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
