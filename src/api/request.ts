// The base client rules of spec §7, as a pure function so they are testable
// without a network: prefixing, workspace scoping, method override and `with`.
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';

export type ParamValue = string | number | boolean | null | undefined | readonly (string | number)[];
export type Params = Record<string, ParamValue>;

export interface RequestInput {
  method: HttpMethod;
  url: string;
  params?: Params;
  workspaceId?: number | null;
  xsrfToken?: string | null;
}

export interface BuiltRequest {
  /** The method actually sent on the wire (PUT/PATCH/DELETE become POST). */
  method: 'GET' | 'POST' | 'HEAD';
  /** The method the caller meant; it decides whether retrying is safe. */
  intendedMethod: HttpMethod;
  url: string;
  headers: Record<string, string>;
}

const ABSOLUTE_URL = /^([a-z][a-z\d+\-.]*:)?\/\//i;
const UNPREFIXED = /^\/?(auth|secure)(\/|$|\?)/;
const OVERRIDDEN: HttpMethod[] = ['PUT', 'PATCH', 'DELETE'];
const WORKSPACE_SCOPED: HttpMethod[] = ['GET', 'POST', 'PUT'];
const SAFE: HttpMethod[] = ['GET', 'HEAD'];

export function isAbsoluteUrl(url: string): boolean {
  return ABSOLUTE_URL.test(url);
}

/** `users/me` → `/api/v1/users/me`; `auth/login` → `/auth/login`; absolute urls untouched. */
export function resolveApiUrl(url: string): string {
  if (isAbsoluteUrl(url)) return url;
  const path = url.replace(/^\/+/, '');
  if (UNPREFIXED.test(path)) return `/${path}`;
  if (path.startsWith('api/v1/')) return `/${path}`;
  return `/api/v1/${path}`;
}

export function buildRequest(input: RequestInput): BuiltRequest {
  const { method } = input;
  const params: Params = { ...input.params };

  if (input.workspaceId != null && WORKSPACE_SCOPED.includes(method)) {
    params.workspaceId = input.workspaceId;
  }
  if (method === 'GET' && Array.isArray(params.with)) {
    params.with = params.with.join(',');
  }

  const headers: Record<string, string> = { Accept: 'application/json' };
  let wireMethod: BuiltRequest['method'] = method === 'GET' || method === 'HEAD' ? method : 'POST';
  if (OVERRIDDEN.includes(method)) {
    // Some proxies and hosts only pass GET and POST: the server reads the override.
    params._method = method;
    headers['X-HTTP-Method-Override'] = method;
    wireMethod = 'POST';
  }
  if (!SAFE.includes(method) && input.xsrfToken) {
    headers['X-XSRF-TOKEN'] = input.xsrfToken;
  }

  return { method: wireMethod, intendedMethod: method, url: appendParams(resolveApiUrl(input.url), params), headers };
}

function appendParams(url: string, params: Params): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value) search.append(`${key}[]`, String(item));
    } else {
      search.append(key, String(value));
    }
  }
  const query = search.toString();
  if (!query) return url;
  return `${url}${url.includes('?') ? '&' : '?'}${query}`;
}

export function isIdempotent(method: HttpMethod): boolean {
  return method === 'GET' || method === 'HEAD' || method === 'PUT' || method === 'DELETE';
}
