import { context, SpanKind, SpanStatusCode, trace, TraceFlags, type Span, type SpanContext } from '@opentelemetry/api';
import { TraceState } from '@opentelemetry/core';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { afterAll, describe, expect, it } from 'vitest';
import { exportRequest, resourceFields, scopeFields, writeRecordedSpan, type RecordedSpan } from '../../../server/observability/otlp-spans.js';
import { ProtoWriter } from '../../../server/observability/otlp-writer.js';
import { ServerSpan } from '../../../server/observability/server-span.js';
import { decodeTraceExport } from '../../peers/otlp-protobuf.js';

/**
 * Issue 33: a request's server span is recorded without the SDK's span object
 * (server-span.ts). Whatever is done to it, it must be written exactly as the
 * SDK's span would be after the same calls.
 */
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN_ID = '00f067aa0ba902b7';
const resource = resourceFromAttributes({ 'service.name': 'drive' });
const memory = new InMemorySpanExporter();
const provider = new NodeTracerProvider({
  resource,
  spanProcessors: [new SimpleSpanProcessor(memory)],
  // The same ids on both sides, so the bytes can be compared whole.
  idGenerator: { generateTraceId: () => TRACE_ID, generateSpanId: () => SPAN_ID },
});
const tracer = provider.getTracer('drive', '1.2.3');
afterAll(() => provider.shutdown());

const remote: SpanContext = {
  traceId: TRACE_ID,
  spanId: 'b7ad6b7169203331',
  traceFlags: TraceFlags.SAMPLED,
  isRemote: true,
  traceState: new TraceState('vendor=value'),
};
const linked: SpanContext = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: '53995c3f42cd8ad8', traceFlags: TraceFlags.SAMPLED };

/** The same calls on any span; times are whole epoch milliseconds so both clocks write the same nanoseconds. */
function exercise(span: Span, at: number, error: Error): void {
  span.updateName('GET /api/v1/drive/file-entries');
  span.setAttributes({ 'http.route': '/api/v1/drive/file-entries', 'url.scheme': 'http', 'drive.request_id': 'req-1' });
  span.setAttribute('drive.rows', 50);
  span.setAttribute('drive.skip', undefined as unknown as string); // ignored, as the SDK ignores it
  span.setAttribute('', 'no key'); // ignored
  span.setAttribute('drive.mixed', [1, 'two'] as unknown as number[]); // not an attribute value: ignored
  span.setAttribute('drive.rows', 51); // an existing key is replaced, not counted again
  for (let i = 0; i < 130; i += 1) span.setAttribute(`drive.extra.${i}`, i); // past the 128 limit: dropped and counted
  span.addEvent('cache miss', { 'drive.key': 'listing', 'drive.bad': [true, 1] as unknown as boolean[] }, at + 1);
  span.addEvent('timed only', at + 2);
  span.recordException(error, at + 3);
  span.recordException({ name: '', message: '' }, at + 3); // neither type nor message: nothing recorded
  span.addLink({ context: linked, attributes: { 'drive.why': 'queued by' } });
  span.addLinks([{ context: linked }]);
  span.setStatus({ code: SpanStatusCode.UNSET }); // changes nothing
  span.setStatus({ code: SpanStatusCode.ERROR, message: 'Error' });
  span.end(at + 5);
  // After the end nothing changes.
  span.setAttribute('drive.late', true);
  span.updateName('late');
  span.setStatus({ code: SpanStatusCode.OK });
  span.end(at + 9);
}

function bytes(write: (w: ProtoWriter) => void): Buffer {
  const w = new ProtoWriter(16);
  write(w);
  return exportRequest(resourceFields(resource), [{ ...scopeFields({ name: 'drive', version: '1.2.3' }), spans: w.take() }]);
}

describe('request spans recorded without the SDK', () => {
  it('are written byte for byte as the SDK writes a span after the same calls', () => {
    memory.reset();
    const at = Date.now() - 1000;
    const error = Object.assign(new Error('disk full'), { code: 'ENOSPC' });
    const parent = trace.setSpanContext(context.active(), remote);
    exercise(tracer.startSpan('GET', { kind: SpanKind.SERVER, attributes: { 'http.request.method': 'GET' }, startTime: at }, parent), at, error);
    const reference = Buffer.from(ProtobufTraceSerializer.serializeRequest(memory.getFinishedSpans())!);

    const ended: RecordedSpan[] = [];
    const ours = new ServerSpan(
      { recorded: (span) => ended.push(span) },
      { traceId: TRACE_ID, spanId: SPAN_ID, traceFlags: TraceFlags.SAMPLED, traceState: remote.traceState },
      remote,
      'GET',
      { 'http.request.method': 'GET' },
      at - performance.timeOrigin,
    );
    exercise(ours, at, error);

    expect(ended).toHaveLength(1); // ended once, the second end ignored
    expect(ours.isRecording()).toBe(false);
    const written = bytes((w) => writeRecordedSpan(w, ended[0]!));
    expect(written.toString('hex')).toBe(reference.toString('hex'));
    const [span] = decodeTraceExport(written).resourceSpans[0]!.scopeSpans[0]!.spans;
    expect(span).toMatchObject({ name: 'GET /api/v1/drive/file-entries', parentSpanId: remote.spanId, status: { code: 2, message: 'Error' } });
    // 5 attributes and 130 extras against a limit of 128.
    expect(ended[0]!.droppedAttributes).toBe(7);
    expect(span!.events?.map((event) => event.name)).toEqual(['cache miss', 'timed only', 'exception']);
  });

  it('keep OK final and drop the message of a status that is not an error, as the SDK does', () => {
    memory.reset();
    const sdk = tracer.startSpan('GET', { kind: SpanKind.SERVER });
    const ours = new ServerSpan({ recorded: () => undefined }, { traceId: TRACE_ID, spanId: SPAN_ID, traceFlags: TraceFlags.SAMPLED }, undefined, 'GET', {});
    for (const span of [sdk, ours]) {
      span.setStatus({ code: SpanStatusCode.OK, message: 'fine' });
      span.setStatus({ code: SpanStatusCode.ERROR, message: 'too late' });
    }
    sdk.end();
    ours.end();
    expect(ours.status).toEqual(memory.getFinishedSpans()[0]!.status);
    expect(ours.status).toEqual({ code: SpanStatusCode.OK });
  });

  it('start with the attributes the SDK would keep of those given, and share no event or link between spans', () => {
    memory.reset();
    const at = Date.now() - 1000;
    const given = () => ({ 'http.request.method': 'GET', 'drive.skip': undefined, '': 'no key', 'drive.mixed': [1, 'two'], 'drive.rows': 3 }) as never;
    tracer.startSpan('GET', { kind: SpanKind.SERVER, attributes: given(), startTime: at }).end(at + 1);
    const reference = Buffer.from(ProtobufTraceSerializer.serializeRequest(memory.getFinishedSpans())!);
    const ended: RecordedSpan[] = [];
    const sink = { recorded: (span: RecordedSpan) => ended.push(span) };
    const context = { traceId: TRACE_ID, spanId: SPAN_ID, traceFlags: TraceFlags.SAMPLED };
    const first = new ServerSpan(sink, context, undefined, 'GET', given(), at - performance.timeOrigin);
    first.end(at + 1);
    expect(bytes((w) => writeRecordedSpan(w, ended[0]!)).toString('hex')).toBe(reference.toString('hex'));

    const withEvents = new ServerSpan(sink, context, undefined, 'GET', {});
    withEvents.addEvent('cache miss');
    withEvents.addLink({ context: linked });
    withEvents.setStatus({ code: SpanStatusCode.ERROR });
    const plain = new ServerSpan(sink, context, undefined, 'GET', {});
    expect(plain.events).toEqual([]);
    expect(plain.links).toEqual([]);
    expect(plain.status).toEqual({ code: SpanStatusCode.UNSET });
  });
});
