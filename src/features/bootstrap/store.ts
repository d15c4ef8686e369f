import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { api } from '../../api/http';
import { queryKeys } from '../../api/query-keys';
import type { Bootstrap } from '../../api/bootstrap-types';

// The bootstrap data lives in exactly one place: the query cache under
// queryKeys.bootstrap. It is persisted with the cache, so a reload while
// offline paints from the last copy. Login, logout, language change and the
// appearance editor all write through setBootstrap/updateBootstrap.

/**
 * The server writes the caller's bootstrap data into the page it serves; the
 * first read takes it from there (no round trip before the first screen) and
 * removes it, so every later read — after login, logout — asks the server.
 */
export function takeInlineBootstrap(): Bootstrap | null {
  if (typeof document === 'undefined') return null;
  const element = document.getElementById('bootstrap-data');
  if (!element) return null;
  element.remove();
  try {
    return (JSON.parse(element.textContent ?? '') as { data: Bootstrap }).data;
  } catch {
    return null;
  }
}

export function fetchBootstrap(signal?: AbortSignal): Promise<Bootstrap> {
  const inline = takeInlineBootstrap();
  if (inline) return Promise.resolve(inline);
  return api.get('bootstrap-data', { signal }).then((r) => r.data as Bootstrap);
}

export function useBootstrapQuery() {
  return useQuery({
    queryKey: queryKeys.bootstrap,
    queryFn: ({ signal }) => fetchBootstrap(signal),
    // Never garbage-collect: every screen reads it, and offline it is all we have.
    gcTime: Infinity,
  });
}

/**
 * Whether the bootstrap data in hand is the device's copy from an earlier page (restored with the query cache)
 * while the server's answer is still on its way. A copy says who was signed in then, not now: the session may have
 * ended since (or begun in another tab). Offline, or once the request failed, nothing is on its way and the copy
 * is what there is.
 */
export function useBootstrapUnconfirmed(): boolean {
  const { dataUpdatedAt, isFetching } = useBootstrapQuery();
  // Data set or fetched by this page is younger than the page; a restored copy keeps the time it was fetched.
  return isFetching && dataUpdatedAt < performance.timeOrigin;
}

/** For components under the bootstrap gate: the data is always there. */
export function useBootstrap(): Bootstrap {
  const { data } = useBootstrapQuery();
  if (!data) throw new Error('useBootstrap used outside the bootstrap gate');
  return data;
}

export function setBootstrap(client: QueryClient, data: Bootstrap): void {
  client.setQueryData(queryKeys.bootstrap, data);
}

export function updateBootstrap(client: QueryClient, update: (current: Bootstrap) => Bootstrap): void {
  client.setQueryData<Bootstrap>(queryKeys.bootstrap, (current) => (current ? update(current) : current));
}

export function useSetBootstrap() {
  const client = useQueryClient();
  return (data: Bootstrap) => setBootstrap(client, data);
}
