import { buildRequest } from '../../api/request';
import { traceHeaders } from '../../observability/trace-context';
import type { ApiBody, ApiPath, ApiResponse } from '../../api/typed-paths';

// What every queue's transport needs to reach the API from the worker or the
// page, and the requests themselves: built by the page's base client rules
// (`buildRequest`) and keyed by the same OpenAPI paths as the page's typed
// client (src/api/typed-paths.ts), so a route whose body or answer changes
// fails to compile here as it does in the page.

export interface HttpDeps {
  fetch: typeof fetch;
  /** Origin the API paths resolve against (the page's or the worker's). */
  origin: string;
  /** Read fresh for every request: the cookie may change under a long upload. */
  getXsrfToken: () => Promise<string | null>;
}

/**
 * Every POST route's body and answer, computed once per path: a transport
 * generic over a few of its paths indexes this table instead of asking the
 * checker to expand the whole path union for each call.
 */
export type PostCalls = { [P in ApiPath<'post'>]: { body: ApiBody<P, 'post'>; answer: ApiResponse<P, 'post'> } };

/** A response whose JSON, when the request succeeded, is the route's declared answer. */
export interface ApiAnswer<S extends ApiPath<'post'>> extends Response {
  json(): Promise<PostCalls[S]['answer']>;
}

export interface PostOptions {
  workspaceId: number | null;
  signal?: AbortSignal;
  /** The queued item the request is for: its requests share one trace (observability/trace-context.ts). */
  traceId?: string;
}

async function post(deps: HttpDeps, path: string, options: PostOptions, headers: Record<string, string>, body: BodyInit): Promise<Response> {
  const built = buildRequest({ method: 'POST', url: path, workspaceId: options.workspaceId, xsrfToken: await deps.getXsrfToken() });
  return deps.fetch(new URL(built.url, deps.origin).toString(), {
    method: built.method,
    headers: { ...built.headers, ...traceHeaders(options.traceId), ...headers },
    credentials: 'include',
    body,
    signal: options.signal,
  });
}

/** POSTs the route's declared JSON body to a typed path, in the item's workspace. */
export async function postJson<S extends ApiPath<'post'>>(deps: HttpDeps, path: S, json: PostCalls[S]['body'], options: PostOptions): Promise<ApiAnswer<S>> {
  // The answer's JSON is typed by the path; the generated document is the contract the server's schemas produce.
  return (await post(deps, path, options, { 'Content-Type': 'application/json' }, JSON.stringify(json))) as ApiAnswer<S>;
}

/** POSTs a multipart form to a typed path (the route's body is a file stream, not JSON). */
export async function postForm<S extends ApiPath<'post'>>(deps: HttpDeps, path: S, form: FormData, options: PostOptions): Promise<ApiAnswer<S>> {
  return (await post(deps, path, options, {}, form)) as ApiAnswer<S>;
}

/**
 * The tus endpoint's address (the one queue address outside the OpenAPI
 * document: the tus protocol's server answers it). tus-js-client builds its
 * own requests and asks for the XSRF token per request.
 */
export function tusEndpoint(deps: Pick<HttpDeps, 'origin'>, workspaceId: number | null): string {
  return new URL(buildRequest({ method: 'POST', url: 'tus/upload', workspaceId }).url, deps.origin).toString();
}

export interface GetOptions {
  workspaceId: number | null;
  params?: Record<string, string | number>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  traceId?: string;
}

/** A GET through the base client rules (prefix, workspace), for what the worker reads: manifests, listings, bytes. */
export function getFrom(deps: HttpDeps, path: string, options: GetOptions): Promise<Response> {
  const built = buildRequest({ method: 'GET', url: path, params: options.params, workspaceId: options.workspaceId });
  return deps.fetch(new URL(built.url, deps.origin).toString(), {
    method: 'GET',
    headers: { ...built.headers, ...traceHeaders(options.traceId), ...options.headers },
    credentials: 'include',
    signal: options.signal,
  });
}
