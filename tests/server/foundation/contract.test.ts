import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpError } from '../../../server/lib/errors.js';
import { Conflict, Forbidden, NotFound, PayloadTooLarge, TooManyRequests, Unauthenticated } from '../../../server/lib/errors.js';
import { TestClient } from '../support/client.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/** Routes that exist only in this suite, to observe the base contract from inside. */
function addProbeRoutes(app: FastifyInstance) {
  app.register(
    async (api) => {
      const echo = async (request: { method: string; ctx: unknown; body: unknown }) => ({
        method: request.method,
        ctx: request.ctx,
        body: request.body ?? null,
      });
      api.get('/probe', echo);
      api.post('/probe', echo);
      api.put('/probe', echo);
      api.patch('/probe', echo);
      api.delete('/probe', echo);
      const thrown: Record<string, () => HttpError> = {
        '401': () => Unauthenticated(),
        '403': () => Forbidden(),
        '404': () => NotFound(),
        '409': () => Conflict('That name is already taken.'),
        '413': () => PayloadTooLarge(),
        '429': () => TooManyRequests(),
      };
      api.get<{ Params: { status: string } }>('/probe/throw/:status', async (request) => {
        const make = thrown[request.params.status];
        if (make) throw make();
        throw new Error('database password is hunter2');
      });
    },
    { prefix: '/api/v1' },
  );
}

describe('base contract (spec §7)', () => {
  let t: TestApp;
  let client: TestClient;

  beforeAll(async () => {
    t = await createTestApp({ env: { BODY_LIMIT: '2048' }, beforeReady: addProbeRoutes });
    client = new TestClient(t.app);
  });
  afterAll(() => t.close());

  describe('prefixes and 404', () => {
    it('serves the API under /api/v1', async () => {
      const res = await client.get('/api/v1/bootstrap-data');
      expect(res.statusCode).toBe(200);
    });

    it.each(['/api/v1/nothing-here', '/api/v2/bootstrap-data', '/auth/nothing', '/secure/nothing'])(
      'answers unknown API path %s with a JSON 404',
      async (url) => {
        const res = await client.get(url);
        expect(res.statusCode).toBe(404);
        expect(res.headers['content-type']).toMatch(/application\/json/);
        expect(res.json()).toEqual({ message: 'Not found.' });
      },
    );

    it('keeps auth calls at /auth, not under /api/v1', async () => {
      expect((await client.post('/api/v1/auth/login', {})).statusCode).toBe(404);
      expect((await client.post('/auth/login', {})).statusCode).toBe(422);
    });
  });

  describe('method override', () => {
    it.each(['PUT', 'PATCH', 'DELETE'])('POST with ?_method=%s reaches the %s route', async (method) => {
      const res = await client.post(`/api/v1/probe?_method=${method}`, { a: 1 });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ method, body: { a: 1 } });
    });

    it.each(['PUT', 'PATCH', 'DELETE'])('POST with X-HTTP-Method-Override: %s reaches the %s route', async (method) => {
      const res = await client.post('/api/v1/probe', { a: 2 }, { 'x-http-method-override': method.toLowerCase() });
      expect(res.json()).toMatchObject({ method });
    });

    it('ignores overrides to methods that are not PUT, PATCH or DELETE', async () => {
      const res = await client.post('/api/v1/probe?_method=GET', {});
      expect(res.json()).toMatchObject({ method: 'POST' });
    });

    it('does not turn a GET into a DELETE', async () => {
      const res = await client.get('/api/v1/probe?_method=DELETE');
      expect(res.json()).toMatchObject({ method: 'GET' });
    });
  });

  describe('request context', () => {
    it('parses workspaceId and with', async () => {
      const res = await client.get('/api/v1/probe?workspaceId=12&with=roles,social_profiles,%20tokens');
      expect(res.json().ctx).toEqual({ workspaceId: 12, with: ['roles', 'social_profiles', 'tokens'] });
    });

    it('defaults to no workspace and no relations', async () => {
      expect((await client.get('/api/v1/probe')).json().ctx).toEqual({ workspaceId: null, with: [] });
    });

    it('rejects a workspaceId that is not a whole number with a field error', async () => {
      const res = await client.get('/api/v1/probe?workspaceId=abc');
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        message: 'The workspace id must be a whole number.',
        errors: { workspaceId: ['The workspace id must be a whole number.'] },
      });
    });
  });

  describe('errors', () => {
    it('answers validation failures with 422, a message and a field map', async () => {
      const res = await client.post('/auth/login', { email: 'not-an-email' });
      expect(res.statusCode).toBe(422);
      const body = res.json();
      expect(body.errors).toEqual({
        email: ['The email field must be a valid email address.'],
        password: ['The password field is required.'],
      });
      expect(body.message).toBe('The email field must be a valid email address. (and 1 more error)');
    });

    it.each(['401', '403', '404', '409', '413', '429'])('answers a %s from the catalogue as {message}', async (status) => {
      const res = await client.get(`/api/v1/probe/throw/${status}`);
      expect(res.statusCode).toBe(Number(status));
      expect(Object.keys(res.json())).toEqual(['message']);
      expect(res.json().message).toEqual(expect.any(String));
    });

    it('never leaks an unexpected error or its stack', async () => {
      const res = await client.get('/api/v1/probe/throw/boom');
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ message: 'There was an issue. Please try again.' });
      expect(res.body).not.toContain('hunter2');
      expect(res.body).not.toContain('at ');
    });

    it('answers malformed JSON with 400 and a message', async () => {
      const res = await client.request('POST', '/api/v1/probe', {
        body: '{"a": ',
        headers: { 'content-type': 'application/json' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'The request body is not valid JSON.' });
    });

    it('answers an oversized body with 413 and a message', async () => {
      const res = await client.post('/api/v1/probe', { blob: 'x'.repeat(4096) });
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({ message: 'The request body is too large.' });
    });

    it('answers an unsupported content type with 415 and a message', async () => {
      const res = await client.request('POST', '/api/v1/probe', { body: 'a=b', headers: { 'content-type': 'text/x-nope' } });
      expect(res.statusCode).toBe(415);
      expect(res.json()).toEqual({ message: 'This content type is not supported.' });
    });
  });
});
