import { expect, test } from '@playwright/test';
import { traceIdOf } from '../../src/observability/trace-context';
import { startOtlpReceiver, type OtlpReceiver } from '../peers/otlp-receiver';
import { setSetting } from './settings';
import { enqueueLarge, MB, ready, storedItem } from './upload-helpers';

const SERVER = 2;

/**
 * Issue 33 §2: "one upload is one trace from the page through the worker to
 * the database". The item made in the page names the trace; the worker's tus
 * requests (create, each chunk, the entry) carry it as traceparent, and the
 * server's spans, its statements and the storage writes land under it, at a
 * real OTLP receiver the admin setting points the running server at.
 */
test.describe('an upload as one trace', () => {
  let receiver: OtlpReceiver;
  test.beforeAll(async () => {
    receiver = await startOtlpReceiver();
    await setSetting('observability.otlp_endpoint', `${receiver.endpoint}/v1/traces`);
  });
  test.afterAll(async () => {
    await setSetting('observability.otlp_endpoint', '');
    await receiver.close();
  });

  test('the worker’s tus requests for one item, the statements and the storage writes share its trace', async ({ page }) => {
    test.setTimeout(60_000);
    // A new context: its worker reads the client config (tracing on) when it starts.
    await ready(page);
    const item = await enqueueLarge(page, { name: 'traced.bin', size: 12 * MB, chunkSize: 5 * MB, seed: 0x7ace });
    await expect.poll(async () => (await storedItem(page, item.id))?.status, { timeout: 40_000 }).toBe('completed');

    const traceId = traceIdOf(item.id);
    // The exporter sends every second; the entry's span is the last request of the upload.
    await receiver.waitForSpan((s) => s.traceId === traceId && s.attributes['http.route'] === '/api/v1/tus/entries', 20_000);
    const inTrace = receiver.spans().filter((s) => s.traceId === traceId);
    const requests = inTrace.filter((s) => s.kind === SERVER);
    const routes = requests.map((s) => `${s.attributes['http.request.method']} ${s.attributes['http.route']}`);
    expect(routes.filter((r) => r === 'POST /api/v1/tus/upload')).toHaveLength(1);
    expect(routes.filter((r) => r.startsWith('PATCH /api/v1/tus/upload/'))).toHaveLength(3);
    expect(routes.filter((r) => r === 'POST /api/v1/tus/entries')).toHaveLength(1);
    // Each request continues a span of the worker's (its traceparent), none starts a trace of its own.
    for (const span of requests) expect(span.parentSpanId, span.name).toMatch(/^[0-9a-f]{16}$/);
    expect(new Set(requests.map((s) => s.parentSpanId)).size).toBe(requests.length);
    // The database's statements hang under those requests' spans, in the same trace.
    const ids = new Set(inTrace.map((s) => s.spanId));
    const statements = inTrace.filter((s) => s.attributes['db.system.name'] === 'sqlite');
    expect(statements.length).toBeGreaterThan(0);
    for (const statement of statements) expect(ids.has(statement.parentSpanId), statement.name).toBe(true);
    expect(inTrace.some((s) => s.name.startsWith('storage '))).toBe(true);
  });
});
