import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';

/** Issue 33 §4: one id per request, in the response header and on every log line, with the trace id. */
describe('request id and trace id', () => {
  let t: TestApp | null = null;
  afterEach(async () => t?.close());

  const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
  const parse = (lines: string[]) => lines.map((l) => JSON.parse(l) as Record<string, unknown>);

  it('answers a fresh X-Request-Id, and keeps a sane incoming one', async () => {
    t = await createTestApp();
    const fresh = await t.app.inject({ url: '/api/v1/health' });
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const other = await t.app.inject({ url: '/api/v1/health' });
    expect(other.headers['x-request-id']).not.toBe(fresh.headers['x-request-id']);

    const kept = await t.app.inject({ url: '/api/v1/health', headers: { 'x-request-id': 'proxy-7f3a.91:b_c' } });
    expect(kept.headers['x-request-id']).toBe('proxy-7f3a.91:b_c');

    for (const bad of ['short', 'has space in it', 'x'.repeat(129), 'quote"injection"here', '{"json":"line"}']) {
      const replaced = await t.app.inject({ url: '/api/v1/health', headers: { 'x-request-id': bad } });
      expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('keeps the id on error answers', async () => {
    t = await createTestApp();
    const response = await t.app.inject({ url: '/api/v1/drive/file-entries', headers: { 'x-request-id': 'failing-call-0001' } });
    expect(response.statusCode).toBe(401);
    expect(response.headers['x-request-id']).toBe('failing-call-0001');
  });

  it("writes the request id and the caller's trace id on the request's lines and on lines of the app logger", async () => {
    const lines: string[] = [];
    t = await createTestApp({
      log: { level: 'debug', lines },
      beforeReady: (app) => {
        app.get('/test/log-from-a-service', async () => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          app.log.info({ step: 'service' }, 'a service line');
          return { ok: true };
        });
      },
    });
    const response = await t.app.inject({
      url: '/test/log-from-a-service',
      headers: { 'x-request-id': 'find-me-1042', traceparent: `00-${TRACE}-00f067aa0ba902b7-01` },
    });
    expect(response.headers['x-request-id']).toBe('find-me-1042');
    const mine = parse(lines).filter((l) => l.reqId === 'find-me-1042');
    expect(mine.map((l) => l.msg)).toEqual(expect.arrayContaining(['a service line', 'request']));
    for (const line of mine) expect(line.traceId).toBe(TRACE);
    // Each key once: a request logger's bindings and the mixin do not both write it.
    const raw = lines.find((l) => l.includes('"a service line"'))!;
    expect(raw.match(/"reqId"/g)).toHaveLength(1);
    const requestLine = lines.find((l) => l.includes('"msg":"request"'))!;
    expect(requestLine.match(/"reqId"/g)).toHaveLength(1);

    // A line outside any request has neither.
    t.app.log.info('outside');
    const outside = parse(lines).find((l) => l.msg === 'outside')!;
    expect(outside.reqId).toBeUndefined();
  });

  it("at warn, drops a request's info lines and writes its warnings with both ids (the request's logger is made on its first line)", async () => {
    const lines: string[] = [];
    t = await createTestApp({
      log: { level: 'warn', lines },
      beforeReady: (app) => {
        app.get('/test/warns', async (request) => {
          request.log.info('an info line');
          request.log.warn({ step: 'warned' }, 'a warning');
          expect(request.log.level).toBe('warn');
          return { ok: true };
        });
      },
    });
    await t.app.inject({ url: '/test/warns', headers: { 'x-request-id': 'warns-0001', traceparent: `00-${TRACE}-00f067aa0ba902b7-01` } });
    const mine = parse(lines).filter((l) => l.reqId === 'warns-0001');
    expect(mine.map((l) => l.msg)).toEqual(['a warning']);
    expect(mine[0]).toMatchObject({ traceId: TRACE, step: 'warned' });
  });

  it('ignores a malformed traceparent', async () => {
    const lines: string[] = [];
    t = await createTestApp({ log: { level: 'debug', lines } });
    await t.app.inject({ url: '/api/v1/health', headers: { 'x-request-id': 'no-trace-0001', traceparent: '00-zz-00-01' } });
    const line = parse(lines).find((l) => l.reqId === 'no-trace-0001')!;
    expect(line).toBeDefined();
    expect(line.traceId).toBeUndefined();
  });
});
