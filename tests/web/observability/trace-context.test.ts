import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../../src/api/http';
import { postJson } from '../../../src/offline/queues/http';
import { tusTransport } from '../../../src/offline/queues/uploads/tus-transport';
import { configureTracing, sampled, traceHeaders, traceIdOf } from '../../../src/observability/trace-context';
import { fakeTusServer } from '../uploads/fake-tus-server';
import { makeItem } from '../uploads/helpers';

const ITEM = '3f2b8c1e-9a4d-4e7b-8c2f-1d5e6a7b8c9d';
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-(0[01])$/;
const parts = (header: string | undefined) => {
  const match = TRACEPARENT.exec(header ?? '');
  if (!match) throw new Error(`not a traceparent: ${header}`);
  return { traceId: match[1], spanId: match[2], flags: match[3] };
};

// Issue 33 §2: the page's and the worker's calls carry W3C traceparent while the server exports traces.
describe('trace context of the page and the worker', () => {
  afterEach(() => configureTracing(null));

  it('sends nothing while the server exports no traces (off, or its config unknown)', () => {
    expect(traceHeaders(ITEM)).toEqual({});
    configureTracing({ tracing: false, tracesSampleRate: 1 });
    expect(traceHeaders(ITEM)).toEqual({});
  });

  it('names one trace per queued item (its UUID) with a new span per request, and a new trace for anything else', () => {
    configureTracing({ tracing: true, tracesSampleRate: 1 });
    const first = parts(traceHeaders(ITEM).traceparent);
    const second = parts(traceHeaders(ITEM).traceparent);
    expect(first.traceId).toBe('3f2b8c1e9a4d4e7b8c2f1d5e6a7b8c9d');
    expect(second.traceId).toBe(first.traceId);
    expect(second.spanId).not.toBe(first.spanId);
    expect(first.flags).toBe('01');
    const loose = [parts(traceHeaders().traceparent), parts(traceHeaders().traceparent)];
    expect(loose[0]!.traceId).not.toBe(loose[1]!.traceId);
    // Another kind of id: a hash of it, the same every time; all zeros (invalid in W3C's rules): a fresh id.
    expect(traceIdOf('item-7')).toMatch(/^[0-9a-f]{32}$/);
    expect(traceIdOf('item-7')).toBe(traceIdOf('item-7'));
    expect(traceIdOf('item-8')).not.toBe(traceIdOf('item-7'));
    expect(traceIdOf('00000000-0000-0000-0000-000000000000')).not.toMatch(/^0+$/);
  });

  it('decides sampling from the trace id alone, so every request of an item agrees', () => {
    configureTracing({ tracing: true, tracesSampleRate: 0 });
    expect(parts(traceHeaders(ITEM).traceparent).flags).toBe('00');
    const ids = Array.from({ length: 400 }, () => traceIdOf());
    const kept = ids.filter((id) => sampled(id, 0.5));
    // Half of 400 random ids, give or take far more than chance allows (p < 1e-9 outside).
    expect(kept.length).toBeGreaterThan(100);
    expect(kept.length).toBeLessThan(300);
    for (const id of ids) expect(sampled(id, 0.5)).toBe(sampled(id, 0.5));
  });

  it("puts a trace on each of the page's own API calls", async () => {
    const seen: Headers[] = [];
    const fetcher = (async (input: RequestInfo | URL) => {
      seen.push((input as Request).headers);
      return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
    }) as typeof fetch;
    const api = createApiClient({ fetch: fetcher, baseUrl: 'http://drive.test', getWorkspaceId: () => null, getXsrfToken: () => null });
    await api.request('GET', '/api/v1/health');
    expect(seen[0]?.get('traceparent')).toBeNull();
    configureTracing({ tracing: true, tracesSampleRate: 1 });
    await api.request('GET', '/api/v1/health');
    await api.request('GET', '/api/v1/health');
    expect(parts(seen[1]?.get('traceparent') ?? '').traceId).not.toBe(parts(seen[2]?.get('traceparent') ?? '').traceId);
  });

  it("puts the item's trace on the queue's API calls", async () => {
    const seen: Record<string, string>[] = [];
    const fetcher = (async (_input: RequestInfo | URL, init?: RequestInit) => {
      seen.push(init?.headers as Record<string, string>);
      return new Response('{}', { status: 200 });
    }) as typeof fetch;
    const deps = { fetch: fetcher, origin: 'http://drive.test', getXsrfToken: () => Promise.resolve(null) };
    await postJson(deps, 'tus/entries', { uploadKey: 'k' }, { workspaceId: null, traceId: ITEM });
    expect(seen[0]?.traceparent).toBeUndefined();
    configureTracing({ tracing: true, tracesSampleRate: 1 });
    await postJson(deps, 'tus/entries', { uploadKey: 'k' }, { workspaceId: null, traceId: ITEM });
    expect(parts(seen[1]?.traceparent).traceId).toBe('3f2b8c1e9a4d4e7b8c2f1d5e6a7b8c9d');
  });

  it('makes every request of a tus upload (create, chunks, entry) one trace', async () => {
    configureTracing({ tracing: true, tracesSampleRate: 1 });
    const server = fakeTusServer();
    const item = makeItem({ id: ITEM, method: 'tus', size: 10 * 1024, chunkSize: 4 * 1024 });
    const deps = { fetch: server.fetch, origin: 'http://drive.test', getXsrfToken: () => Promise.resolve('x') };
    await tusTransport(deps)(item, {
      blob: new Blob([new Uint8Array(10 * 1024)]),
      onProgress: () => undefined,
      onUploadUrl: () => undefined,
      onS3Upload: () => undefined,
    }).done;
    expect(server.seen.map((request) => request.method)).toEqual(['POST', 'PATCH', 'PATCH', 'PATCH', 'POST']);
    const traces = server.seen.map((request) => parts(request.headers.traceparent));
    expect(new Set(traces.map((t) => t.traceId))).toEqual(new Set(['3f2b8c1e9a4d4e7b8c2f1d5e6a7b8c9d']));
    expect(new Set(traces.map((t) => t.spanId)).size).toBe(traces.length);
  });
});
