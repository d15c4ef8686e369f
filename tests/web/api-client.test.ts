import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/api-error';
import { createApiClient } from '../../src/api/http';
import { createQueryClient, shouldRetryQuery } from '../../src/api/query-client';
import { buildRequest, resolveApiUrl } from '../../src/api/request';

describe('url prefixing', () => {
  it('prefixes api/v1 unless the url starts with auth or secure or is absolute', () => {
    expect(resolveApiUrl('users/me')).toBe('/api/v1/users/me');
    expect(resolveApiUrl('/bootstrap-data')).toBe('/api/v1/bootstrap-data');
    expect(resolveApiUrl('auth/login')).toBe('/auth/login');
    expect(resolveApiUrl('secure/auth/social/google/login')).toBe('/secure/auth/social/google/login');
    expect(resolveApiUrl('https://s3.example.com/bucket/key')).toBe('https://s3.example.com/bucket/key');
    expect(resolveApiUrl('api/v1/s3/multipart/batch-sign-part-urls')).toBe('/api/v1/s3/multipart/batch-sign-part-urls');
  });
});

describe('buildRequest', () => {
  it('sends PUT, PATCH and DELETE as POST with _method and the override header', () => {
    for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
      const built = buildRequest({ method, url: 'workspace/3' });
      expect(built.method).toBe('POST');
      expect(built.url).toBe(`/api/v1/workspace/3?_method=${method}`);
      expect(built.headers['X-HTTP-Method-Override']).toBe(method);
    }
    expect(buildRequest({ method: 'POST', url: 'workspace' }).headers['X-HTTP-Method-Override']).toBeUndefined();
  });

  it('adds workspaceId to GET, POST and PUT only, when one is set', () => {
    const url = (method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH', workspaceId: number | null) =>
      new URL(buildRequest({ method, url: 'drive/file-entries', workspaceId }).url, 'http://x').searchParams.get('workspaceId');
    expect(url('GET', 5)).toBe('5');
    expect(url('POST', 5)).toBe('5');
    expect(url('PUT', 5)).toBe('5');
    expect(url('DELETE', 5)).toBeNull();
    expect(url('PATCH', 5)).toBeNull();
    expect(url('GET', null)).toBeNull();
  });

  it('joins a with array by commas for GET', () => {
    const built = buildRequest({ method: 'GET', url: 'users/1', params: { with: ['roles', 'social_profiles', 'tokens'] } });
    expect(new URL(built.url, 'http://x').searchParams.get('with')).toBe('roles,social_profiles,tokens');
  });

  it('keeps query parameters already in the url', () => {
    const built = buildRequest({ method: 'GET', url: 'notifications?page=2', params: { perPage: 30 } });
    expect(built.url).toBe('/api/v1/notifications?page=2&perPage=30');
  });

  it('asks for JSON and sends the XSRF token on unsafe methods only', () => {
    const post = buildRequest({ method: 'POST', url: 'auth/login', xsrfToken: 'tok' });
    const get = buildRequest({ method: 'GET', url: 'bootstrap-data', xsrfToken: 'tok' });
    expect(post.headers.Accept).toBe('application/json');
    expect(post.headers['X-XSRF-TOKEN']).toBe('tok');
    expect(get.headers['X-XSRF-TOKEN']).toBeUndefined();
  });
});

type Reply = Response | Error;

function fakeFetch(replies: (() => Reply)[]) {
  const calls: Request[] = [];
  const fetchFn = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    calls.push(request);
    const next = replies[Math.min(calls.length - 1, replies.length - 1)];
    const reply = next ? next() : new Response('{}');
    if (reply instanceof Error) throw reply;
    return reply;
  };
  return { calls, fetch: fetchFn as typeof fetch };
}

const json = (status: number, body: unknown) => () => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function client(replies: (() => Reply)[], workspaceId: number | null = null) {
  const fake = fakeFetch(replies);
  const api = createApiClient({
    fetch: fake.fetch,
    baseUrl: 'http://app.test',
    retryDelay: () => 0,
    getWorkspaceId: () => workspaceId,
    getXsrfToken: () => 'xsrf-1',
  });
  return { api, calls: fake.calls };
}

describe('api client', () => {
  it('sends credentials, JSON accept, the XSRF header and the override on the wire', async () => {
    const { api, calls } = client([json(200, { ok: true })], 7);
    await expect(api.request('DELETE', 'workspace/7')).resolves.toEqual({ ok: true });
    const request = calls[0]!;
    expect(request.method).toBe('POST');
    expect(request.credentials).toBe('include');
    expect(request.headers.get('Accept')).toBe('application/json');
    expect(request.headers.get('X-XSRF-TOKEN')).toBe('xsrf-1');
    expect(request.headers.get('X-HTTP-Method-Override')).toBe('DELETE');
    expect(request.url).toBe('http://app.test/api/v1/workspace/7?_method=DELETE');
  });

  it('retries idempotent requests 3 times on 5xx', async () => {
    const { api, calls } = client([json(503, {}), json(500, {}), json(502, {}), json(200, { data: 1 })]);
    await expect(api.get('bootstrap-data')).resolves.toEqual({ data: 1 });
    expect(calls).toHaveLength(4);
  });

  it('gives up after 3 retries', async () => {
    const { api, calls } = client([json(500, { message: 'Boom' })]);
    await expect(api.put('users/{id}', { first_name: 'x' }, { path: { id: 'me' } })).rejects.toMatchObject({ status: 500, message: 'Boom' });
    expect(calls).toHaveLength(4);
  });

  it('retries idempotent requests on network errors', async () => {
    const { api, calls } = client([() => new TypeError('Failed to fetch'), json(200, { ok: 1 })]);
    await expect(api.get('health')).resolves.toEqual({ ok: 1 });
    expect(calls).toHaveLength(2);
  });

  it('never retries mutations (POST) or 4xx answers', async () => {
    const post = client([json(500, {})]);
    await expect(post.api.request('POST', 'workspace', { json: { name: 'abc' } })).rejects.toBeInstanceOf(ApiError);
    expect(post.calls).toHaveLength(1);

    const notFound = client([json(404, { message: 'Not found' })]);
    await expect(notFound.api.request('GET', 'workspace/1')).rejects.toMatchObject({ status: 404 });
    expect(notFound.calls).toHaveLength(1);
  });

  it('carries the server error body on ApiError', async () => {
    const { api } = client([json(422, { message: 'Invalid', errors: { email: ['Taken', 'Bad'] } })]);
    const error = await api.post('auth/login', { email: 'a@b.c', password: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).body.errors?.email?.[0]).toBe('Taken');
  });
});

/**
 * A fake server with the real one's XSRF rule (server/plugins/xsrf.ts): an unsafe call must echo the token it
 * expects, a refusal is a 403 marked X-XSRF-Mismatch whose answer sets the expected token as the cookie.
 */
function xsrfServer(options: { refreshes: boolean }) {
  const jar = { token: 'stale-token' };
  const expected = 'fresh-token';
  const seen: (string | null)[] = [];
  const fetchFn = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const sent = request.headers.get('X-XSRF-TOKEN');
    seen.push(sent);
    if (sent === expected) return json(200, { user: { id: 1 } })();
    if (options.refreshes) jar.token = expected;
    // Translated, as the server sends it to a Turkish page: the header is the signal, not the words.
    return new Response(JSON.stringify({ message: 'CSRF belirteci uyuşmuyor.' }), {
      status: 403,
      headers: { 'Content-Type': 'application/json', 'X-XSRF-Mismatch': '1' },
    });
  };
  const api = createApiClient({
    fetch: fetchFn as typeof fetch,
    baseUrl: 'http://app.test',
    retryDelay: () => 0,
    getWorkspaceId: () => null,
    getXsrfToken: () => jar.token,
  });
  return { api, seen };
}

describe('a stale XSRF token (issue 39 item 7)', () => {
  it('is refreshed from the refusal and the call made once more, quietly', async () => {
    const { api, seen } = xsrfServer({ refreshes: true });
    await expect(api.post('auth/login', { email: 'a@b.c', password: 'x' })).resolves.toEqual({ user: { id: 1 } });
    expect(seen).toEqual(['stale-token', 'fresh-token']);
  });

  it('is retried only once: a second refusal reaches the caller', async () => {
    const { api, seen } = xsrfServer({ refreshes: false });
    await expect(api.post('auth/login', { email: 'a@b.c', password: 'x' })).rejects.toMatchObject({ status: 403 });
    expect(seen).toHaveLength(2);
  });

  it('leaves every other 403 alone', async () => {
    const { api, calls } = client([json(403, { message: 'This action is unauthorized.' })]);
    await expect(api.post('auth/login', { email: 'a@b.c', password: 'x' })).rejects.toMatchObject({ status: 403 });
    expect(calls).toHaveLength(1);
  });
});

describe('query retry policy', () => {
  it('retries at most 2 times and never on 401, 403 or 404', () => {
    expect(shouldRetryQuery(0, new ApiError('badResponse', 500))).toBe(true);
    expect(shouldRetryQuery(1, new ApiError('network', 0))).toBe(true);
    expect(shouldRetryQuery(2, new ApiError('badResponse', 500))).toBe(false);
    for (const status of [401, 403, 404]) {
      expect(shouldRetryQuery(0, new ApiError('badRequest', status))).toBe(false);
    }
  });

  it('sets the spec defaults on the query client', () => {
    const defaults = createQueryClient().getDefaultOptions();
    expect(defaults.queries?.staleTime).toBe(30_000);
    expect(defaults.queries?.gcTime).toBe(5 * 60 * 1000);
    expect(defaults.mutations?.retry).toBe(false);
  });
});
