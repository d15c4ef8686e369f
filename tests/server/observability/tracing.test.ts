import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobMap, JobQueue } from '../../../server/lib/background.js';
import { tracingOn } from '../../../server/observability/tracing.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../../peers/otlp-receiver.js';
import { startSentryReceiver, type SentryReceiver } from '../../peers/sentry-receiver.js';
import { signedInUser } from '../support/drive-factories.js';
import { createTestApp, DIALECT, type TestApp } from '../support/test-app.js';
import { multipartUpload } from '../uploads/support.js';
import { servicesOf } from '../support/services-handle.js';

const PAGE_TRACE = '0af7651916cd43dd8448eb211c80319c';
const PAGE_SPAN = 'b7ad6b7169203331';
const SERVER = 2;
const CLIENT = 3;
const CONSUMER = 5;
const DB_SYSTEM = DIALECT === 'postgres' ? 'postgresql' : 'sqlite';

/** The spans below `root` in its trace, by walking parent ids. */
function descendants(all: ReceivedSpan[], root: ReceivedSpan): ReceivedSpan[] {
  const found: ReceivedSpan[] = [];
  let frontier = [root.spanId];
  while (frontier.length) {
    const next = all.filter((s) => s.traceId === root.traceId && frontier.includes(s.parentSpanId));
    found.push(...next);
    frontier = next.map((s) => s.spanId);
  }
  return found;
}

/** Issue 33 §2: traces exported over OTLP/HTTP to a real receiver on this machine, on both dialects. */
describe('OpenTelemetry traces', () => {
  let otlp: OtlpReceiver;
  let sentry: SentryReceiver;
  let t: TestApp;
  const lines: string[] = [];
  beforeAll(async () => {
    otlp = await startOtlpReceiver();
    sentry = await startSentryReceiver();
    t = await createTestApp({
      log: { level: 'debug', lines },
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint, SENTRY_DSN: sentry.dsn },
      beforeReady: (app: FastifyInstance) => {
        app.get('/api/v1/test/trace-fails/:id', async () => {
          await sql`select 1 as one`.execute(servicesOf(app).db.kysely);
          throw new Error('the handler broke');
        });
        (servicesOf(app).jobs as unknown as JobQueue<JobMap>).define('traced-job', async () => {
          await servicesOf(app).db.kysely.selectFrom('users').select('id').limit(1).execute();
        });
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await otlp?.close();
    await sentry?.close();
  });

  const flush = () => t.app.observability.tracing.flush();

  it("makes an upload one trace: the page's span, the server span, its statements and the storage write", async () => {
    const { client } = await signedInUser(t.app);
    const { body, headers } = multipartUpload({ parentId: '0' }, { name: 'traced.txt', content: Buffer.from('traced bytes') });
    const response = await client.request('POST', '/api/v1/file-entries', {
      body,
      headers: { ...headers, traceparent: `00-${PAGE_TRACE}-${PAGE_SPAN}-01`, 'x-request-id': 'upload-trace-0001' },
    });
    expect(response.statusCode).toBe(200);
    await flush();

    const server = await otlp.waitForSpan((s) => s.attributes['drive.request_id'] === 'upload-trace-0001');
    expect(server).toMatchObject({
      name: 'POST /api/v1/file-entries',
      kind: SERVER,
      traceId: PAGE_TRACE,
      parentSpanId: PAGE_SPAN,
      status: 0,
    });
    expect(server.attributes).toMatchObject({ 'http.route': '/api/v1/file-entries', 'http.request.method': 'POST', 'http.response.status_code': 200 });
    expect(server.resource).toMatchObject({ 'service.name': 'drive', 'deployment.environment.name': 'test' });

    const below = descendants(otlp.spans(), server);
    const statements = below.filter((s) => s.attributes['db.system.name'] === DB_SYSTEM);
    expect(statements.length).toBeGreaterThan(0);
    expect(statements.every((s) => s.kind === CLIENT)).toBe(true);
    const insert = statements.find((s) => s.name === 'INSERT' && String(s.attributes['db.query.text']).includes('file_entries'));
    expect(insert).toBeDefined();
    // Placeholders only: the file's name is a value, never part of the statement text.
    expect(JSON.stringify(statements)).not.toContain('traced.txt');
    const put = below.find((s) => s.name === 'storage put');
    expect(put?.attributes).toMatchObject({ 'drive.storage.disk': 'drive', 'drive.storage.driver': 'local' });

    // The request's log lines carry the same trace id, found by the request id.
    const mine = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.reqId === 'upload-trace-0001');
    expect(mine.length).toBeGreaterThan(0);
    for (const line of mine) expect(line.traceId).toBe(PAGE_TRACE);
  });

  it('starts its own trace without a traceparent and logs its id', async () => {
    const response = await t.app.inject({ url: '/api/v1/health', headers: { 'x-request-id': 'own-trace-0001' } });
    expect(response.statusCode).toBe(200);
    await flush();
    const server = await otlp.waitForSpan((s) => s.attributes['drive.request_id'] === 'own-trace-0001');
    expect(server.parentSpanId).toBe('');
    expect(server.traceId).toMatch(/^[\da-f]{32}$/);
    const line = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.reqId === 'own-trace-0001');
    expect(line?.traceId).toBe(server.traceId);
  });

  it("keeps the page's decision at rate 1: a request it sampled out makes no span, one it sampled keeps its trace state", async () => {
    // Its own trace id: other tests' background jobs may export spans meanwhile, so nothing is counted, the trace is looked for.
    const outTrace = 'c0ffee0000000000000000000000beef';
    await t.app.inject({ url: '/api/v1/health', headers: { 'x-request-id': 'rate-one-out-0001', traceparent: `00-${outTrace}-${PAGE_SPAN}-00` } });
    await t.app.inject({
      url: '/api/v1/health',
      headers: { 'x-request-id': 'rate-one-in-0001', traceparent: `00-${PAGE_TRACE}-${PAGE_SPAN}-01`, tracestate: 'vendor=page' },
    });
    await flush();
    const span = await otlp.waitForSpan((s) => s.attributes['drive.request_id'] === 'rate-one-in-0001');
    expect(span).toMatchObject({ traceId: PAGE_TRACE, parentSpanId: PAGE_SPAN, traceState: 'vendor=page' });
    // Both requests were flushed together: the sampled-out one, its statements included, sent nothing.
    expect(otlp.spans().filter((s) => s.traceId === outTrace || s.attributes['drive.request_id'] === 'rate-one-out-0001')).toEqual([]);
  });

  it('marks a failed request as an error, and its error report names the same trace', async () => {
    const response = await t.app.inject({ url: '/api/v1/test/trace-fails/7', headers: { 'x-request-id': 'failed-trace-0001' } });
    expect(response.statusCode).toBe(500);
    await flush();
    const server = await otlp.waitForSpan((s) => s.attributes['drive.request_id'] === 'failed-trace-0001');
    expect(server.name).toBe('GET /api/v1/test/trace-fails/:id');
    expect(server.status).toBe(2);
    expect(server.attributes['http.response.status_code']).toBe(500);
    expect(descendants(otlp.spans(), server).some((s) => s.attributes['db.query.text'] === 'select 1 as one')).toBe(true);

    await t.app.observability.errors.flush();
    const event = await sentry.waitForEvent((e) => e.tags?.request_id === 'failed-trace-0001');
    expect(event.tags?.trace_id).toBe(server.traceId);
    expect((event.contexts?.trace as { trace_id?: string; span_id?: string } | undefined)?.trace_id).toBe(server.traceId);
    expect((event.contexts?.trace as { span_id?: string }).span_id).toBe(server.spanId);
  });

  it('gives each job try its own root span, with its statements below', async () => {
    const jobs = servicesOf(t.app).jobs as unknown as JobQueue<JobMap>;
    await jobs.enqueue('traced-job', {});
    await servicesOf(t.app).jobs.idle();
    await flush();
    const job = await otlp.waitForSpan((s) => s.name === 'job traced-job');
    expect(job).toMatchObject({ kind: CONSUMER, parentSpanId: '' });
    expect(job.attributes).toMatchObject({ 'drive.job.name': 'traced-job', 'drive.job.attempt': 1 });
    const statements = descendants(otlp.spans(), job).filter((s) => s.name === 'SELECT');
    expect(statements.length).toBeGreaterThan(0);
  });

  it('tells the page that traces are exported, so it sends traceparent', async () => {
    const response = await t.app.inject({ url: '/api/v1/observability/client' });
    expect(response.json()).toMatchObject({ tracing: true, tracesSampleRate: 1 });
    // OTLP/HTTP's default encoding (the OpenTelemetry spec's), as a collector expects without being told.
    expect(otlp.requests.length).toBeGreaterThan(0);
    expect(otlp.requests.every((r) => r.path === '/v1/traces' && r.contentType === 'application/x-protobuf')).toBe(true);
  });
});

/** A fresh app exporting to a fresh receiver with `env` added, closed with it after `check`. */
async function withTracedApp(env: Record<string, string>, check: (t: TestApp, otlp: OtlpReceiver) => Promise<void>): Promise<void> {
  const otlp = await startOtlpReceiver();
  const t = await createTestApp({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint, ...env } });
  try {
    await check(t, otlp);
  } finally {
    await t.close();
    await otlp.close();
  }
}

describe('traces over OTLP/HTTP JSON', () => {
  it('sends JSON when OTEL_EXPORTER_OTLP_PROTOCOL asks for it', () =>
    withTracedApp({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }, async (t, otlp) => {
      await t.app.inject({ url: '/api/v1/health', headers: { 'x-request-id': 'json-export-0001' } });
      await t.app.observability.tracing.flush();
      const span = await otlp.waitForSpan((s) => s.attributes['drive.request_id'] === 'json-export-0001');
      expect(span.name).toBe('GET /api/v1/health');
      expect(otlp.requests.every((r) => r.contentType.startsWith('application/json'))).toBe(true);
    }));
});

describe('a sample rate below 1', () => {
  it("samples its own roots by the rate and keeps the page's decision (rate 0: only traces the page sampled)", () =>
    withTracedApp({ OTEL_TRACES_SAMPLER_ARG: '0' }, async (t, otlp) => {
      await t.app.inject({ url: '/api/v1/health', headers: { 'x-request-id': 'rate-zero-own-0001' } });
      await t.app.inject({ url: '/api/v1/health', headers: { 'x-request-id': 'rate-zero-page-0001', traceparent: `00-${PAGE_TRACE}-${PAGE_SPAN}-01` } });
      await t.app.observability.tracing.flush();
      const span = await otlp.waitForSpan((s) => s.attributes['drive.request_id'] === 'rate-zero-page-0001');
      expect(span).toMatchObject({ traceId: PAGE_TRACE, parentSpanId: PAGE_SPAN });
      expect(otlp.spans().filter((s) => s.attributes['drive.request_id'] === 'rate-zero-own-0001')).toEqual([]);
      // A request the page sampled out makes no span, and neither do its statements (their parent's flag says no).
      const before = otlp.count();
      await t.app.inject({ url: '/api/v1/health', headers: { 'x-request-id': 'rate-zero-page-0002', traceparent: `00-${PAGE_TRACE}-${PAGE_SPAN}-00` } });
      await t.app.observability.tracing.flush();
      expect(otlp.count()).toBe(before);
    }));
});

describe('traces off', () => {
  let otlp: OtlpReceiver;
  let t: TestApp;
  const lines: string[] = [];
  beforeAll(async () => {
    otlp = await startOtlpReceiver();
    t = await createTestApp({ log: { level: 'debug', lines } });
  });
  afterAll(async () => {
    await t?.close();
    await otlp?.close();
  });

  it('exports nothing and makes no spans without an endpoint', async () => {
    expect(tracingOn()).toBe(false);
    const { client } = await signedInUser(t.app);
    const { body, headers } = multipartUpload({ parentId: '0' }, { name: 'quiet.txt', content: Buffer.from('x') });
    expect((await client.request('POST', '/api/v1/file-entries', { body, headers: { ...headers, 'x-request-id': 'no-trace-0001' } })).statusCode).toBe(200);
    await t.app.observability.tracing.flush();
    expect(otlp.requests).toHaveLength(0);
    const line = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.reqId === 'no-trace-0001');
    expect(line).toBeDefined();
    expect(line?.traceId).toBeUndefined();
    expect((await t.app.inject({ url: '/api/v1/observability/client' })).json()).toMatchObject({ tracing: false });
  });

  it('follows an admin who sets the endpoint at once (not at the next minute’s recheck), and stops when it is cleared', async () => {
    const admin = (await signedInUser(t.app, { roles: ['admin'] })).client;
    const save = (value: string) => admin.request('PUT', '/api/v1/admin/settings', { body: { 'observability.otlp_endpoint': value } });
    expect((await save(`${otlp.endpoint}/v1/traces`)).statusCode).toBe(200);
    await t.app.observability.tracing.settled();
    expect(tracingOn()).toBe(true);
    expect((await admin.request('GET', '/api/v1/health', { headers: { 'x-request-id': 'traced-after-save' } })).statusCode).toBe(200);
    await t.app.observability.tracing.flush();
    expect((await otlp.waitForSpan((s) => s.attributes['drive.request_id'] === 'traced-after-save')).name).toBe('GET /api/v1/health');

    expect((await save('')).statusCode).toBe(200);
    await t.app.observability.tracing.settled();
    expect(tracingOn()).toBe(false);
  });
});
