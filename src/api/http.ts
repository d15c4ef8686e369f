import ky, { HTTPError, TimeoutError } from 'ky';
import type { KyInstance } from 'ky';
import { activeWorkspaceId, workspaceParam } from './active-workspace';
import { ApiError } from './api-error';
import type { ErrorBody } from './api-error';
import { traceHeaders } from '../observability/trace-context';
import { readCookie } from './cookies';
import { buildRequest, isIdempotent } from './request';
import type { HttpMethod, Params } from './request';
import { fillPath } from './typed-paths';
import type { ApiBody, ApiPath, ApiResponse, CallOptions } from './typed-paths';

export interface ApiClientOptions {
  fetch?: typeof fetch;
  getWorkspaceId?: () => number | null;
  getXsrfToken?: () => string | null;
  /** Delay between retries; tests pass `() => 0`. */
  retryDelay?: (attempt: number) => number;
  timeout?: number;
  /** Origin that relative urls resolve against; the page's own by default. */
  baseUrl?: string;
}

export interface RequestOptions {
  params?: Params;
  json?: unknown;
  body?: BodyInit;
  signal?: AbortSignal;
}

export type ApiClient = ReturnType<typeof createApiClient>;

const IDEMPOTENT_RETRIES = 3;
const ALL_METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'trace'] as const;

export function createApiClient(options: ApiClientOptions = {}) {
  const getWorkspaceId = options.getWorkspaceId ?? (() => workspaceParam(activeWorkspaceId()));
  const getXsrfToken = options.getXsrfToken ?? (() => readCookie('XSRF-TOKEN'));
  const http: KyInstance = ky.create({
    credentials: 'include',
    timeout: options.timeout ?? 30_000,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });

  /**
   * A tab left open past its session (or whose XSRF cookie the browser
   * dropped) sends a token the server no longer expects. The refusal carries
   * the fresh token as a cookie (the server sets it on every answer), so the
   * call is made once more with it, quietly; a second refusal is the user's
   * to see.
   */
  async function request<T>(method: HttpMethod, url: string, opts: RequestOptions = {}): Promise<T> {
    try {
      return await send<T>(method, url, opts);
    } catch (error) {
      if (!isXsrfMismatch(error)) throw await toApiError(error, opts.signal);
      try {
        return await send<T>(method, url, opts);
      } catch (again) {
        throw await toApiError(again, opts.signal);
      }
    }
  }

  async function send<T>(method: HttpMethod, url: string, opts: RequestOptions): Promise<T> {
    const built = buildRequest({
      method,
      url,
      params: opts.params,
      workspaceId: getWorkspaceId(),
      xsrfToken: getXsrfToken(),
    });
    const idempotent = isIdempotent(built.intendedMethod);
    const baseUrl = options.baseUrl ?? globalThis.location?.origin;
    const target = baseUrl ? new URL(built.url, baseUrl).toString() : built.url;
    const response = await http(target, {
      method: built.method,
      // Each call is its own trace (when the server exports traces); queued uploads and saves share one per item.
      headers: { ...built.headers, ...traceHeaders() },
      json: opts.json,
      body: opts.body,
      signal: opts.signal,
      retry: {
        limit: idempotent ? IDEMPOTENT_RETRIES : 0,
        methods: [...ALL_METHODS],
        ...(options.retryDelay ? { delay: options.retryDelay } : {}),
        // Only network failures and 5xx are worth repeating, and only when
        // repeating cannot duplicate a write (mutations are never retried).
        shouldRetry: ({ error }) => idempotent && isRetryable(error),
      },
    });
    if (response.status === 204) return undefined as T;
    const text = await response.text();
    if (!text) return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new ApiError('badResponse', response.status, {}, 'Invalid JSON response');
    }
  }

  const call = <S extends string, M extends 'get' | 'post' | 'put' | 'delete', T>(
    method: HttpMethod,
    path: S,
    options: CallOptions<S, M> & { json?: unknown; body?: BodyInit } = {},
  ) =>
    request<T>(method, fillPath(path, options.path), {
      params: options.query as Params | undefined,
      json: options.json,
      body: options.body,
      signal: options.signal,
    });

  return {
    /** Any method and address, untyped: the base client rules only (absolute urls, tests). */
    request,
    /** Calls typed by their path in the generated OpenAPI document (typed-paths.ts). */
    get: <S extends ApiPath<'get'>>(path: S, options?: CallOptions<S, 'get'>) => call<S, 'get', ApiResponse<S, 'get'>>('GET', path, options),
    post: <S extends ApiPath<'post'>>(path: S, json?: ApiBody<S, 'post'>, options?: CallOptions<S, 'post'>) =>
      call<S, 'post', ApiResponse<S, 'post'>>('POST', path, { ...options, json }),
    /** A multipart body (FormData) to a typed path. */
    postForm: <S extends ApiPath<'post'>>(path: S, body: FormData, options?: CallOptions<S, 'post'>) =>
      call<S, 'post', ApiResponse<S, 'post'>>('POST', path, { ...options, body }),
    put: <S extends ApiPath<'put'>>(path: S, json?: ApiBody<S, 'put'>, options?: CallOptions<S, 'put'>) =>
      call<S, 'put', ApiResponse<S, 'put'>>('PUT', path, { ...options, json }),
    delete: <S extends ApiPath<'delete'>>(path: S, options?: CallOptions<S, 'delete'> & { json?: ApiBody<S, 'delete'> }) =>
      call<S, 'delete', ApiResponse<S, 'delete'>>('DELETE', path, options),
  };
}

/** The server's CSRF refusal (server/lib/errors.ts CsrfMismatch): a 403 marked by its header, in any language. */
export const XSRF_MISMATCH_HEADER = 'X-XSRF-Mismatch';
function isXsrfMismatch(error: unknown): boolean {
  return error instanceof HTTPError && error.response.status === 403 && error.response.headers.get(XSRF_MISMATCH_HEADER) === '1';
}

function isRetryable(error: Error): boolean {
  if (error instanceof HTTPError) return error.response.status >= 500;
  if (error instanceof TimeoutError) return false;
  return error.name !== 'AbortError';
}

async function toApiError(error: unknown, signal?: AbortSignal): Promise<ApiError> {
  if (error instanceof ApiError) return error;
  if (error instanceof HTTPError) {
    const body = await readErrorBody(error.response);
    const kind = error.response.status >= 500 ? 'badResponse' : 'badRequest';
    return new ApiError(kind, error.response.status, body);
  }
  if (error instanceof TimeoutError) return new ApiError('timeout', 0);
  if (error instanceof Error && error.name === 'AbortError') {
    return new ApiError(signal?.aborted ? 'canceled' : 'aborted', 0);
  }
  return new ApiError('network', 0, {}, error instanceof Error ? error.message : 'Network error');
}

async function readErrorBody(response: Response): Promise<ErrorBody> {
  try {
    const data: unknown = await response.clone().json();
    return typeof data === 'object' && data !== null ? (data as ErrorBody) : {};
  } catch {
    return {};
  }
}

/** The app's one client. */
export const api = createApiClient();
