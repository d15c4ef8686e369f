import { matchPath } from 'react-router-dom';
import type { QueryClient } from '@tanstack/react-query';
import type { Bootstrap } from '../api/bootstrap-types';
import { ACTIVE_WORKSPACE_COOKIE, PERSONAL_WORKSPACE } from '../api/active-workspace';
import { readCookie } from '../api/cookies';
import { billingKeys } from '../features/billing/api';
import { PER_PAGE } from '../features/drive/api/listing';
import { driveKeys } from '../features/drive/api/keys';
import { DRIVE_VIEWS, listingKey, listingQuery, ROOT_HASH, type ListingParams } from '../features/drive/lib/views';

/**
 * The screens whose markup the server writes into the page it serves (issue
 * 38.1): a visitor's first paint is the page itself instead of a spinner
 * waiting for ~200 KB of script. The public screens are hydrated by React;
 * the drive's frame is a preview the browser's first render replaces (its
 * listing lives on the device and its screens hold too much browser state to
 * hydrate). Everything else keeps the static shell and renders in the browser.
 */
export interface ServerRoute {
  path: string;
  /**
   * The screen's modules (their lazy imports in routes.tsx): the page preloads their built chunks, so
   * the browser has the screen's code with the entry's and hydrates at once (until then a click is lost).
   */
  modules: string[];
  /** Only for a guest: a signed-in visitor is sent on by the route's guard, which the browser does. */
  guestOnly?: boolean;
  /** Only for a signed-in visitor (a guest is sent to /login by the guard). */
  signedInOnly?: boolean;
  /** Painted first, then replaced by the browser's own render rather than hydrated. */
  preview?: boolean;
  /** The queries the screen reads on its first render, asked of the API in-process and handed to the browser. */
  prefetch?: (client: QueryClient, get: ApiGet, request: { params: Record<string, string | undefined>; cookies: string }) => Promise<void>;
}

/** GET of an API path (below /api/v1/) as the visitor, answered by the same process. */
export type ApiGet = (path: string) => Promise<unknown>;

const SERVER_ROUTES: ServerRoute[] = [
  { path: '/login', modules: ['src/features/auth/LoginPage.tsx'], guestOnly: true },
  { path: '/register', modules: ['src/features/auth/RegisterPage.tsx'], guestOnly: true },
  { path: '/forgot-password', modules: ['src/features/auth/ForgotPasswordPage.tsx'], guestOnly: true },
  {
    path: '/pricing',
    modules: ['src/features/pricing/PricingPage.tsx'],
    // The same key and data as useProducts (billing/api.ts): the plans render from it without a request.
    prefetch: (client, get) =>
      client.prefetchQuery({
        queryKey: billingKeys.products,
        queryFn: async () => ((await get('billing/products')) as { pagination: { data: unknown[] } }).pagination.data,
      }),
  },
  // The navbar, the sidebar, the folder's toolbar and its first page of entries, painted with the page
  // before any script: the browser's first render starts from the same listing (handed over below)
  // and puts the same elements in the same places, so the largest contentful paint stays the first.
  ...['/drive', '/drive/folders/:hash'].map((path) => ({
    path,
    modules: ['src/app/layouts/AppLayout.tsx', 'src/features/drive/DriveRoutes.tsx'],
    signedInOnly: true,
    preview: true,
    prefetch: prefetchFolder,
  })),
  // The drive's other views: their frame (a listing of their own is not worth a request here).
  { path: '/drive/*', modules: ['src/app/layouts/AppLayout.tsx', 'src/features/drive/DriveRoutes.tsx'], signedInOnly: true, preview: true },
];

/**
 * A folder's first page as useListing (drive/api/listing.ts) asks for it with the view's default
 * order, under the same key. Only in the personal workspace: another one's is the cookie's, which the
 * API client adds itself; and a device that keeps another order simply asks again.
 */
async function prefetchFolder(client: QueryClient, get: ApiGet, { params, cookies }: { params: Record<string, string | undefined>; cookies: string }) {
  if ((readCookie(ACTIVE_WORKSPACE_COOKIE, cookies) ?? '0') !== '0') return;
  const listingParams: ListingParams = { view: 'folder', folderId: params.hash ?? ROOT_HASH, sort: DRIVE_VIEWS.folder.sort };
  const query = new URLSearchParams(Object.entries(listingQuery(listingParams, null, PER_PAGE)).map(([name, value]) => [name, String(value)]));
  await client.prefetchInfiniteQuery({
    queryKey: driveKeys.listing(PERSONAL_WORKSPACE, listingKey(listingParams)),
    initialPageParam: null as string | null,
    queryFn: () => get(`drive/file-entries?${query}`),
  });
}

/** The route the server renders for this path and visitor, if any. */
export function serverRouteFor(
  pathname: string,
  bootstrap: Pick<Bootstrap, 'user'>,
): { route: ServerRoute; params: Record<string, string | undefined> } | null {
  for (const route of SERVER_ROUTES) {
    const match = matchPath({ path: route.path, end: true }, pathname);
    if (!match) continue;
    if ((route.guestOnly && bootstrap.user) || (route.signedInOnly && !bootstrap.user)) return null;
    return { route, params: match.params };
  }
  return null;
}
