import { context, SpanKind, SpanStatusCode, trace, TraceFlags, type SpanContext } from '@opentelemetry/api';
import net, { type AddressInfo, type Socket } from 'node:net';
import { setGlobalErrorHandler, TraceState } from '@opentelemetry/core';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-node';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  exportRequest,
  exportRequestInPlace,
  headroomFor,
  resourceFields,
  scopeFields,
  writeLeafSpan,
  writeSdkSpan,
} from '../../../server/observability/otlp-spans.js';
import { ProtoWriter } from '../../../server/observability/otlp-writer.js';
import { EncodingSpanExporter } from '../../../server/observability/span-export.js';
import { decodeTraceExport, type DecodedSpan } from '../../peers/otlp-protobuf.js';
import { startOtlpReceiver } from '../../peers/otlp-receiver.js';

/**
 * Issue 33: spans are written as OTLP protobuf when they end (otlp-spans.ts),
 * not by the maintained serializer at export. Its bytes are the reference:
 * for the SDK's spans the two must be identical, byte for byte.
 */
const resource = resourceFromAttributes({ 'service.name': 'drive', 'service.version': '1.2.3', 'deployment.environment.name': 'test' });
const memory = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ resource, spanProcessors: [new SimpleSpanProcessor(memory)] });
const tracer = provider.getTracer('drive', '1.2.3');
afterAll(() => provider.shutdown());

function ours(spans: ReadableSpan[]): Buffer {
  const w = new ProtoWriter(16); // small, so every message grows it at least once
  for (const span of spans) writeSdkSpan(w, span);
  return exportRequest(resourceFields(spans[0]!.resource), [{ ...scopeFields(spans[0]!.instrumentationScope), spans: w.take() }]);
}

const longSql = `select ${Array.from({ length: 60 }, (_, i) => `"file_entries"."column_${i}"`).join(', ')} from "file_entries" where "id" = ?`;

describe('OTLP protobuf written as spans end', () => {
  it('writes the SDK spans exactly as the maintained serializer does', () => {
    memory.reset();
    const parent = tracer.startSpan('POST /api/v1/file-entries', {
      kind: SpanKind.SERVER,
      attributes: { 'http.route': '/api/v1/file-entries', 'drive.request_id': 'req-0001', 'http.request.method': 'POST' },
    });
    const under = trace.setSpan(context.active(), parent);
    tracer
      .startSpan(
        'SELECT',
        {
          kind: SpanKind.CLIENT,
          attributes: {
            'db.query.text': longSql,
            'db.system.name': 'sqlite',
            'drive.rows': 12,
            'drive.negative': -5,
            'drive.big': 2 ** 40,
            'drive.ratio': 0.25,
            'drive.flag': false,
            'drive.names': ['Ünïcode 名前 📁', 'plain'],
            'drive.counts': [1, 2, 3],
            'drive.empty': '',
          },
        },
        under,
      )
      .end();
    const failing = tracer.startSpan('storage put', { attributes: { 'drive.storage.operation': 'put' } }, under);
    failing.recordException(Object.assign(new Error('disk full'), { code: 'ENOSPC' }));
    failing.addEvent('retry', { 'drive.attempt': 2 });
    failing.setStatus({ code: SpanStatusCode.ERROR, message: 'Error' });
    failing.end();
    const remote: SpanContext = {
      traceId: '0af7651916cd43dd8448eb211c80319c',
      spanId: 'b7ad6b7169203331',
      traceFlags: TraceFlags.SAMPLED,
      isRemote: true,
      traceState: new TraceState('vendor=value'),
    };
    tracer.startSpan('job extract-text', { kind: SpanKind.CONSUMER, root: true, links: [{ context: remote, attributes: { 'drive.why': 'queued by' } }] }).end();
    tracer.startSpan('GET /page', { kind: SpanKind.SERVER }, trace.setSpanContext(context.active(), remote)).end();
    parent.setAttribute('http.response.status_code', 200);
    parent.end();

    const spans = memory.getFinishedSpans();
    expect(spans).toHaveLength(5);
    const reference = Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!);
    const written = ours(spans);
    expect(written.toString('hex')).toBe(reference.toString('hex'));
    // And a reader sees what was recorded (the test collector's decoder).
    const decoded = decodeTraceExport(written).resourceSpans[0]!.scopeSpans[0]!.spans;
    expect(decoded.map((s) => s.name)).toEqual(['SELECT', 'storage put', 'job extract-text', 'GET /page', 'POST /api/v1/file-entries']);
    expect(decoded[0]!.attributes.find((a) => a.key === 'db.query.text')?.value.stringValue).toBe(longSql);
    expect(decoded[0]!.attributes.find((a) => a.key === 'drive.negative')?.value.intValue).toBe('-5');
  });

  it('writes a statement span without an SDK span: under its parent, with a fresh id, its times and attributes', () => {
    memory.reset();
    const parent = tracer.startSpan('GET /api/v1/drive/file-entries', { kind: SpanKind.SERVER });
    const under = parent.spanContext();
    const w = new ProtoWriter(16);
    const before = BigInt(Date.now() - 1) * 1_000_000n;
    const started = performance.now();
    const attributes = { 'db.system.name': 'sqlite', 'db.operation.name': 'SELECT', 'db.query.text': longSql };
    writeLeafSpan(w, under, 'SELECT', SpanKind.CLIENT, attributes, started, started + 1.5, undefined);
    writeLeafSpan(w, under, 'SELECT', SpanKind.CLIENT, attributes, started, started + 2, undefined);
    const after = BigInt(Date.now() + 3) * 1_000_000n;
    parent.end();
    const scope = scopeFields({ name: 'drive', version: '1.2.3' });
    const [first, second] = decodeTraceExport(exportRequest(resourceFields(resource), [{ ...scope, spans: w.take() }])).resourceSpans[0]!.scopeSpans[0]!
      .spans as [DecodedSpan, DecodedSpan];

    expect(first).toMatchObject({ traceId: under.traceId, parentSpanId: under.spanId, name: 'SELECT', kind: 3, status: { code: 0 }, flags: 0x101 });
    expect(first.spanId).toMatch(/^[\da-f]{16}$/);
    expect(first.spanId).not.toBe('0000000000000000');
    expect(first.spanId).not.toBe(second.spanId);
    expect(first.spanId).not.toBe(under.spanId);
    expect(Object.fromEntries(first.attributes.map((a) => [a.key, a.value.stringValue]))).toEqual(attributes);
    expect(first.events).toBeUndefined();
    const start = BigInt(first.startTimeUnixNano!);
    expect(start >= before && start <= after).toBe(true);
    expect(BigInt(first.endTimeUnixNano!) - start).toBe(1_500_000n);
  });

  it("writes a statement's frozen attributes (encoded once, then copied) byte for byte as attributes written afresh", () => {
    const parent = tracer.startSpan('GET /api/v1/drive/file-entries', { kind: SpanKind.SERVER }).spanContext();
    const fields = { 'db.system.name': 'sqlite', 'db.operation.name': 'SELECT', 'db.query.text': longSql };
    const frozen = Object.freeze({ ...fields });
    const spanOf = (attributes: typeof fields) => {
      const w = new ProtoWriter(16);
      writeLeafSpan(w, parent, 'SELECT', SpanKind.CLIENT, attributes, 1000, 1002, undefined);
      const bytes = w.take();
      // The span's own id (random) is left out: after the span's tag and 2-byte length, the trace id's 18 bytes, the id's tag and length.
      return Buffer.concat([bytes.subarray(0, 23), bytes.subarray(31)]).toString('hex');
    };
    const fresh = spanOf(fields);
    expect(spanOf(frozen)).toBe(fresh);
    expect(spanOf(frozen)).toBe(fresh);
  });

  it('records a failed statement as the SDK records an exception: the same event, an error status', () => {
    memory.reset();
    const error = Object.assign(new Error('UNIQUE constraint failed: file_entries.name'), { code: 'SQLITE_CONSTRAINT_UNIQUE' });
    const parent = tracer.startSpan('POST /api/v1/folders', { kind: SpanKind.SERVER });
    const sdk = tracer.startSpan('INSERT', { kind: SpanKind.CLIENT }, trace.setSpan(context.active(), parent));
    sdk.recordException(error);
    sdk.setStatus({ code: SpanStatusCode.ERROR, message: error.name });
    sdk.end();
    const w = new ProtoWriter();
    const now = performance.now();
    writeLeafSpan(w, parent.spanContext(), 'INSERT', SpanKind.CLIENT, {}, now, now, error);
    parent.end();
    const leaf = decodeTraceExport(exportRequest(resourceFields(resource), [{ ...scopeFields({ name: 'drive' }), spans: w.take() }])).resourceSpans[0]!
      .scopeSpans[0]!.spans[0]!;
    const reference = decodeTraceExport(Buffer.from(ProtobufTraceSerializer.serializeRequest([memory.getFinishedSpans()[0]!])!)).resourceSpans[0]!
      .scopeSpans[0]!.spans[0]!;

    expect(leaf.status).toEqual(reference.status);
    expect(leaf.status).toEqual({ code: 2, message: 'Error' });
    expect(leaf.events?.map((e) => ({ name: e.name, attributes: e.attributes }))).toEqual(
      reference.events?.map((e) => ({ name: e.name, attributes: e.attributes })),
    );
    expect(leaf.events?.[0]?.attributes.find((a) => a.key === 'exception.type')?.value.stringValue).toBe('SQLITE_CONSTRAINT_UNIQUE');
  });
});

describe('the exporter when the collector does not answer', () => {
  it('frames a batch of one scope around its spans in place, byte for byte as the request made by copying them', () => {
    memory.reset();
    const parent = tracer.startSpan('GET /api/v1/drive/file-entries', { kind: SpanKind.SERVER }).spanContext();
    // Schema URLs on both, so the bytes written after the spans are checked too; a batch of ~140 KiB, so lengths take 3 bytes.
    const withSchemas = { resource: resourceFields(resource).resource, schemaUrl: Buffer.from([0x1a, 4, 0x75, 0x72, 0x6c, 0x31]) };
    const scope = scopeFields({ name: 'drive', version: '1.2.3', schemaUrl: 'https://opentelemetry.io/schemas/1.30.0' });
    const headroom = headroomFor(withSchemas, scope);
    const w = new ProtoWriter(16);
    w.pos = headroom;
    for (let i = 0; i < 600; i += 1) writeLeafSpan(w, parent, 'SELECT', SpanKind.CLIENT, { 'db.query.text': longSql, n: i }, 1000, 1002, undefined);
    const spans = Buffer.from(w.buf.subarray(headroom, w.pos));
    const inPlace = exportRequestInPlace(withSchemas, scope, w, headroom);
    expect(inPlace.toString('hex')).toBe(exportRequest(withSchemas, [{ ...scope, spans }]).toString('hex'));
    expect(decodeTraceExport(inPlace).resourceSpans[0]!.scopeSpans[0]!.spans).toHaveLength(600);
  });

  it('sends batch after batch whole while it reuses the buffers of those sent, with one scope or two', async () => {
    const otlp = await startOtlpReceiver();
    const exporter = new EncodingSpanExporter(resource, { url: `${otlp.endpoint}/v1/traces`, maxSpans: 50, delayMs: 10_000, concurrency: 8 });
    try {
      const parent = tracer.startSpan('GET /', { kind: SpanKind.SERVER }).spanContext();
      for (let i = 0; i < 500; i += 1) {
        // Every fourth batch mixes a second scope in, taking the copying path between in-place ones.
        const scope = Math.floor(i / 50) % 4 === 3 && i % 2 === 1 ? { name: 'other' } : { name: 'drive' };
        exporter.leaf(scope, parent, 'SELECT', SpanKind.CLIENT, { n: i, 'db.query.text': longSql }, performance.now(), undefined);
        if (i % 50 === 49) await exporter.forceFlush();
      }
      await exporter.forceFlush();
      const received = otlp.spans();
      expect(received).toHaveLength(500);
      expect(received.map((span) => span.attributes.n).sort((a, b) => Number(a) - Number(b))).toEqual(Array.from({ length: 500 }, (_, i) => i));
      expect(received.every((span) => span.attributes['db.query.text'] === longSql && span.parentSpanId === parent.spanId)).toBe(true);
      expect(new Set(received.map((span) => span.scope))).toEqual(new Set(['drive', 'other']));
    } finally {
      await exporter.shutdown().catch(() => undefined);
      await otlp.close();
    }
  });

  it('holds at most its concurrency of exports and drops (and reports) the rest, so memory stays bounded', async () => {
    const sockets: Socket[] = [];
    const silent = net.createServer((socket) => sockets.push(socket)); // accepts, never answers
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const errors: string[] = [];
    setGlobalErrorHandler((error) => errors.push(error instanceof Error ? error.message : String(error)));
    const exporter = new EncodingSpanExporter(resource, {
      url: `http://127.0.0.1:${port}/v1/traces`,
      maxSpans: 5,
      delayMs: 10_000,
      concurrency: 2,
      timeoutMs: 5_000,
    });
    try {
      const parent = tracer.startSpan('GET /', { kind: SpanKind.SERVER });
      // Four full batches: two go out and hang, two are refused at once.
      for (let i = 0; i < 20; i += 1) exporter.leaf({ name: 'drive' }, parent.spanContext(), 'SELECT', SpanKind.CLIENT, { n: i }, performance.now(), undefined);
      parent.end();
      await vi.waitFor(() => expect(sockets.length).toBe(2), { timeout: 4_000 });
      expect(errors.filter((message) => /concurrent export limit/i.test(message))).toHaveLength(2);
    } finally {
      setGlobalErrorHandler(() => undefined);
      for (const socket of sockets) socket.destroy();
      silent.close();
      await exporter.shutdown().catch(() => undefined);
    }
  });
});
