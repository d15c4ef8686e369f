import { buildRequest, type HttpMethod } from '../../api/request';

// What every queue's transport needs to reach the API from the worker or the page.

export interface HttpDeps {
  fetch: typeof fetch;
  /** Origin the API paths resolve against (the page's or the worker's). */
  origin: string;
  /** Read fresh for every request: the cookie may change under a long upload. */
  getXsrfToken: () => Promise<string | null>;
}

/**
 * A request by the base client rules (prefix, workspace scoping, method
 * override, XSRF) — the page's own `buildRequest`, so the rules exist once —
 * resolved against the origin the worker or page runs on.
 */
export async function apiRequest(
  deps: HttpDeps,
  method: HttpMethod,
  path: string,
  workspaceId: number | null,
): Promise<{ url: string; init: { method: string; headers: Record<string, string>; credentials: RequestCredentials } }> {
  const built = buildRequest({ method, url: path, workspaceId, xsrfToken: await deps.getXsrfToken() });
  return { url: new URL(built.url, deps.origin).toString(), init: { method: built.method, headers: built.headers, credentials: 'include' } };
}
