import type { Link, SpanKind, SpanStatus } from '@opentelemetry/api';
import { SpanStatusCode, TraceFlags, type Attributes, type HrTime, type SpanContext } from '@opentelemetry/api';
import type { InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-node';
import { ProtoWriter, writeAttributes } from './otlp-writer.js';

/**
 * Spans as OTLP protobuf (opentelemetry-proto trace/v1), each written the
 * moment it ends: what waits for the next export is bytes, not span objects
 * (which the batch queue kept for up to a second, long enough to be promoted
 * and collected as old objects). Field numbers and choices follow the
 * maintained serializer (`@opentelemetry/otlp-transformer`), which the tests
 * decode side by side with these.
 */

const HAS_IS_REMOTE = 0x100;
const IS_REMOTE = 0x200;

const spanFlags = (traceFlags: number, remote: boolean | undefined) => (traceFlags & 0xff) | HAS_IS_REMOTE | (remote ? IS_REMOTE : 0);

/** What the SDK records of an exception (Span.recordException), for spans written without it. */
export function exceptionAttributes(error: unknown): Attributes {
  if (typeof error === 'string') return { 'exception.message': error };
  const attributes: Attributes = {};
  if (error && typeof error === 'object') {
    const { code, name, message, stack } = error as { code?: unknown; name?: unknown; message?: unknown; stack?: unknown };
    if (code !== undefined && code !== null && code !== '' && code !== 0) attributes['exception.type'] = String(code);
    else if (typeof name === 'string' && name) attributes['exception.type'] = name;
    if (typeof message === 'string' && message) attributes['exception.message'] = message;
    if (typeof stack === 'string' && stack) attributes['exception.stacktrace'] = stack;
  }
  return attributes;
}

function writeStatus(w: ProtoWriter, code: number, message: string | undefined): void {
  const status = w.begin(15);
  if (message) w.string(2, message);
  w.tag(3, 0);
  w.varint(code);
  w.end(status);
}

function writeEvent(w: ProtoWriter, time: HrTime | number, name: string, attributes: Attributes | undefined, dropped: number): void {
  const event = w.begin(11);
  w.tag(1, 1);
  if (typeof time === 'number') w.now(time);
  else w.hrTime(time);
  w.string(2, name);
  writeAttributes(w, 3, attributes);
  w.tag(4, 0);
  w.varint(dropped);
  w.end(event);
}

function writeLinks(w: ProtoWriter, links: readonly Link[], dropped: number): void {
  for (const link of links) {
    const at = w.begin(13);
    w.hexId(1, link.context.traceId);
    w.hexId(2, link.context.spanId);
    const linkState = link.context.traceState?.serialize();
    if (linkState) w.string(3, linkState);
    writeAttributes(w, 4, link.attributes);
    w.tag(5, 0);
    w.varint(link.droppedAttributesCount ?? 0);
    w.tag(6, 5);
    w.fixed32(spanFlags(link.context.traceFlags, link.context.isRemote));
    w.end(at);
  }
  w.tag(14, 0);
  w.varint(dropped);
}

/** The fields before a span's times: ids, trace state, parent, name, kind. */
function writeHead(w: ProtoWriter, context: SpanContext, parent: SpanContext | undefined, name: string, kind: SpanKind): number {
  const start = w.begin(2);
  w.hexId(1, context.traceId);
  w.hexId(2, context.spanId);
  const state = context.traceState?.serialize();
  if (state) w.string(3, state);
  if (parent?.spanId) w.hexId(4, parent.spanId);
  w.string(5, name);
  w.tag(6, 0);
  w.varint(kind + 1);
  return start;
}

/** One span the SDK made (jobs, storage calls), as ScopeSpans.spans (field 2). */
export function writeSdkSpan(w: ProtoWriter, span: ReadableSpan): void {
  const context = span.spanContext();
  const start = writeHead(w, context, span.parentSpanContext, span.name, span.kind);
  w.tag(7, 1);
  w.hrTime(span.startTime);
  w.tag(8, 1);
  w.hrTime(span.endTime);
  writeAttributes(w, 9, span.attributes);
  w.tag(10, 0);
  w.varint(span.droppedAttributesCount);
  for (const event of span.events) writeEvent(w, event.time, event.name, event.attributes, event.droppedAttributesCount ?? 0);
  w.tag(12, 0);
  w.varint(span.droppedEventsCount);
  writeLinks(w, span.links, span.droppedLinksCount);
  writeStatus(w, span.status.code, span.status.message);
  w.tag(16, 5);
  w.fixed32(spanFlags(context.traceFlags, span.parentSpanContext?.isRemote));
  w.end(start);
}

const fixedAttributes = new WeakMap<Attributes, Buffer>();

/**
 * Attributes that cannot change (frozen: a statement's, made once per text in
 * db/watched-dialect.ts), encoded the first time and copied after: a statement
 * text's entry is longer than 127 bytes, so writing it afresh moved it twice
 * to fit its length prefixes, on every statement of every request.
 */
function writeFixedAttributes(w: ProtoWriter, field: number, attributes: Attributes): void {
  let bytes = fixedAttributes.get(attributes);
  if (!bytes) {
    const scratch = new ProtoWriter(1024);
    writeAttributes(scratch, field, attributes);
    bytes = scratch.take();
    fixedAttributes.set(attributes, bytes);
  }
  w.raw(bytes);
}

export interface RecordedEvent {
  name: string;
  attributes: Attributes;
  /** A `performance.now()` reading. */
  at: number;
  droppedAttributes: number;
}

/** A span recorded without the SDK (server-span.ts): the same content as a ReadableSpan, times as `performance.now()` readings. */
export interface RecordedSpan {
  readonly context: SpanContext;
  readonly parent: SpanContext | undefined;
  readonly name: string;
  readonly kind: SpanKind;
  readonly startedAt: number;
  readonly endedAt: number;
  readonly attributes: Attributes;
  readonly droppedAttributes: number;
  readonly events: readonly RecordedEvent[];
  readonly droppedEvents: number;
  readonly links: readonly Link[];
  readonly droppedLinks: number;
  readonly status: SpanStatus;
}

/** A span recorded without the SDK, written as writeSdkSpan writes the SDK's. */
export function writeRecordedSpan(w: ProtoWriter, span: RecordedSpan): void {
  const start = writeHead(w, span.context, span.parent, span.name, span.kind);
  w.tag(7, 1);
  w.now(span.startedAt);
  w.tag(8, 1);
  w.now(span.endedAt);
  writeAttributes(w, 9, span.attributes);
  w.tag(10, 0);
  w.varint(span.droppedAttributes);
  for (const event of span.events) writeEvent(w, event.at, event.name, event.attributes, event.droppedAttributes);
  w.tag(12, 0);
  w.varint(span.droppedEvents);
  writeLinks(w, span.links, span.droppedLinks);
  writeStatus(w, span.status.code, span.status.message);
  w.tag(16, 5);
  w.fixed32(spanFlags(span.context.traceFlags, span.parent?.isRemote));
  w.end(start);
}

/**
 * A span with no children (a statement, a Redis command) under `parent`,
 * written without an SDK span object: its id is drawn here, its times are
 * `performance.now()` readings. What the SDK would record is recorded: a
 * failure's exception event and error status.
 */
export function writeLeafSpan(
  w: ProtoWriter,
  parent: SpanContext,
  name: string,
  kind: SpanKind,
  attributes: Attributes,
  startedAt: number,
  endedAt: number,
  error: unknown,
): void {
  const start = w.begin(2);
  w.hexId(1, parent.traceId);
  w.randomSpanId(2);
  const state = parent.traceState?.serialize();
  if (state) w.string(3, state);
  w.hexId(4, parent.spanId);
  w.string(5, name);
  w.tag(6, 0);
  w.varint(kind + 1);
  w.tag(7, 1);
  w.now(startedAt);
  w.tag(8, 1);
  w.now(endedAt);
  if (Object.isFrozen(attributes)) writeFixedAttributes(w, 9, attributes);
  else writeAttributes(w, 9, attributes);
  w.tag(10, 0);
  w.varint(0);
  const failed = error !== undefined;
  if (failed) writeEvent(w, endedAt, 'exception', exceptionAttributes(error), 0);
  w.tag(12, 0);
  w.varint(0);
  w.tag(14, 0);
  w.varint(0);
  writeStatus(w, failed ? SpanStatusCode.ERROR : SpanStatusCode.UNSET, failed ? (error instanceof Error ? error.name : 'error') : undefined);
  w.tag(16, 5);
  // The parent is this process's own span: never remote.
  w.fixed32(spanFlags(parent.traceFlags & TraceFlags.SAMPLED, false));
  w.end(start);
}

/** A Resource message's bytes (as ResourceSpans.resource, field 1), and its schema URL's (field 3). */
export function resourceFields(resource: Resource): { resource: Buffer; schemaUrl: Buffer } {
  const w = new ProtoWriter(512);
  const at = w.begin(1);
  writeAttributes(w, 1, resource.attributes);
  w.tag(2, 0);
  w.varint(0);
  w.end(at);
  const fields = w.take();
  if (resource.schemaUrl) w.string(3, resource.schemaUrl);
  return { resource: fields, schemaUrl: w.take() };
}

/** An InstrumentationScope message's bytes (as ScopeSpans.scope, field 1), and its schema URL's (field 3). */
export function scopeFields(scope: InstrumentationScope & { attributes?: Attributes; droppedAttributesCount?: number }): { scope: Buffer; schemaUrl: Buffer } {
  const w = new ProtoWriter(256);
  const at = w.begin(1);
  w.string(1, scope.name);
  if (scope.version) w.string(2, scope.version);
  writeAttributes(w, 3, scope.attributes);
  if (scope.droppedAttributesCount) {
    w.tag(4, 0);
    w.varint(scope.droppedAttributesCount);
  }
  w.end(at);
  const fields = w.take();
  if (scope.schemaUrl) w.string(3, scope.schemaUrl);
  return { scope: fields, schemaUrl: w.take() };
}

const varintLength = (value: number) => {
  let length = 1;
  while (value >= 0x80) {
    value = Math.floor(value / 0x80);
    length += 1;
  }
  return length;
};

type Encoded = { schemaUrl: Buffer };

/** Room that exportRequestInPlace needs before a scope's spans: the request's and the scope's framing. */
export function headroomFor(resource: Encoded & { resource: Buffer }, scope: Encoded & { scope: Buffer }): number {
  // Tags are one byte; a length's varint is at most 5 bytes below 2^35 (a batch is a few MiB at most).
  return 1 + 5 + resource.resource.length + 1 + 5 + scope.scope.length;
}

/**
 * The ExportTraceServiceRequest of one scope's spans, written around them where
 * they lie in `w` (from `from` to its end): the framing into the room left
 * before them (headroomFor), the schema URLs after. The same bytes as
 * exportRequest gives for that one scope, without copying the spans out and
 * then into the request (~1.5 µs of a traced listing: two fresh buffers of a
 * batch's size each time, their pages first touched by the copies).
 */
export function exportRequestInPlace(resource: Encoded & { resource: Buffer }, scope: Encoded & { scope: Buffer }, w: ProtoWriter, from: number): Buffer {
  const spans = w.pos - from;
  w.raw(scope.schemaUrl);
  w.raw(resource.schemaUrl);
  const end = w.pos;
  const scopeBody = scope.scope.length + spans + scope.schemaUrl.length;
  const resourceBody = resource.resource.length + 1 + varintLength(scopeBody) + scopeBody + resource.schemaUrl.length;
  const start = from - (1 + varintLength(resourceBody) + resource.resource.length + 1 + varintLength(scopeBody) + scope.scope.length);
  if (start < 0) throw new RangeError('exportRequestInPlace: less room before the spans than headroomFor gives');
  w.pos = start;
  w.tag(1, 2);
  w.varint(resourceBody);
  w.raw(resource.resource);
  w.tag(2, 2);
  w.varint(scopeBody);
  w.raw(scope.scope);
  w.pos = end;
  return w.buf.subarray(start, end);
}

/**
 * An ExportTraceServiceRequest of one resource from each scope's encoded
 * spans; the spans' bytes are copied once, into the request.
 */
export function exportRequest(resource: Encoded & { resource: Buffer }, scopes: (Encoded & { scope: Buffer; spans: Buffer })[]): Buffer {
  const scopeBodies = scopes.map(({ scope, spans, schemaUrl }) => scope.length + spans.length + schemaUrl.length);
  const resourceBody = resource.resource.length + scopeBodies.reduce((sum, body) => sum + 1 + varintLength(body) + body, 0) + resource.schemaUrl.length;
  const w = new ProtoWriter(1 + varintLength(resourceBody) + resourceBody);
  w.tag(1, 2);
  w.varint(resourceBody);
  w.raw(resource.resource);
  scopes.forEach(({ scope, spans, schemaUrl }, i) => {
    w.tag(2, 2);
    w.varint(scopeBodies[i]!);
    w.raw(scope);
    w.raw(spans);
    w.raw(schemaUrl);
  });
  w.raw(resource.schemaUrl);
  return w.buf.subarray(0, w.pos);
}
