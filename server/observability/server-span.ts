import {
  SpanKind,
  SpanStatusCode,
  type Attributes,
  type AttributeValue,
  type Exception,
  type Link,
  type Span,
  type SpanContext,
  type SpanStatus,
  type TimeInput,
} from '@opentelemetry/api';
import { isAttributeValue, sanitizeAttributes } from '@opentelemetry/core';
import { exceptionAttributes, type RecordedEvent, type RecordedSpan } from './otlp-spans.js';

/** Where an ended span goes: the encoding exporter writes it as protobuf at once. */
export interface RecordedSpanSink {
  recorded(span: RecordedSpan): void;
}

// Frozen: a push on the shared ones would throw rather than leak into every span.
const NO_EVENTS = Object.freeze([]) as unknown as RecordedEvent[];
const NO_LINKS = Object.freeze([]) as unknown as Link[];
const UNSET: SpanStatus = Object.freeze({ code: SpanStatusCode.UNSET });

/** The SDK's default span limits (OTEL_SPAN_*_COUNT_LIMIT unset), which the request spans keep to. */
const LIMIT = 128;

/** A `performance.now()` reading for a time given as the API allows (epoch ms, a reading, a Date, an HrTime). */
function reading(time: TimeInput): number {
  if (typeof time === 'number') return time <= performance.now() ? time : time - performance.timeOrigin;
  if (time instanceof Date) return time.getTime() - performance.timeOrigin;
  return time[0] * 1000 + time[1] / 1e6 - performance.timeOrigin;
}

/**
 * A request's server span without the SDK's span object. At rate 1 every
 * request makes one, and the SDK's start and end (context copies, sampler
 * result objects, HrTime arrays, limit bookkeeping, the processor chain) were
 * ~25 µs of a ~700 µs listing under load in a perf A/B of tracing on against
 * off. It keeps the SDK span's semantics (what is dropped, when a call is
 * ignored, what recordException records) and is written by the encoding
 * exporter exactly as the SDK's would be (a test holds the decoded messages
 * equal). Used only with that exporter, which is then the only span processor.
 */
export class ServerSpan implements Span, RecordedSpan {
  attributes: Attributes;
  droppedAttributes = 0;
  private attributeCount = 0;
  // Most spans never get an event, a link or a status: they share empty ones until their first (one allocation less each).
  events: RecordedEvent[] = NO_EVENTS;
  droppedEvents = 0;
  links: Link[] = NO_LINKS;
  droppedLinks = 0;
  status: SpanStatus = UNSET;
  /** A `performance.now()` reading: negative for a time given from before the process started, so not the "ended" mark. */
  endedAt = Number.NaN;
  private ended = false;
  readonly kind = SpanKind.SERVER;

  constructor(
    private readonly sink: RecordedSpanSink,
    readonly context: SpanContext,
    readonly parent: SpanContext | undefined,
    public name: string,
    attributes: Attributes,
    readonly startedAt: number = performance.now(),
  ) {
    // The given object is the span's when every entry is one setAttribute would keep as it is (the request's own
    // attributes always are): no copy. Otherwise each goes through setAttribute's rules.
    let count = 0;
    for (const key in attributes) {
      const value = attributes[key];
      count += 1;
      if (value == null || key.length === 0 || count > LIMIT || !isAttributeValue(value)) {
        count = -1;
        break;
      }
    }
    if (count >= 0) {
      this.attributes = attributes;
      this.attributeCount = count;
    } else {
      this.attributes = {};
      this.setAttributes(attributes);
    }
  }

  spanContext(): SpanContext {
    return this.context;
  }

  isRecording(): boolean {
    return !this.ended;
  }

  setAttribute(key: string, value: AttributeValue): this {
    // As the SDK: nothing after the end, no empty key, no null or mixed-type value, new keys past the limit counted as dropped.
    if (value == null || this.ended || key.length === 0 || !isAttributeValue(value)) return this;
    const isNew = !Object.prototype.hasOwnProperty.call(this.attributes, key);
    if (isNew && this.attributeCount >= LIMIT) {
      this.droppedAttributes += 1;
      return this;
    }
    this.attributes[key] = value;
    if (isNew) this.attributeCount += 1;
    return this;
  }

  setAttributes(attributes: Attributes): this {
    for (const key in attributes) {
      if (Object.prototype.hasOwnProperty.call(attributes, key)) this.setAttribute(key, attributes[key]!);
    }
    return this;
  }

  addEvent(name: string, attributesOrTime?: Attributes | TimeInput, time?: TimeInput): this {
    if (this.ended) return this;
    let attributes = attributesOrTime as Attributes | undefined;
    if (typeof attributesOrTime === 'number' || attributesOrTime instanceof Date || Array.isArray(attributesOrTime)) {
      time ??= attributesOrTime;
      attributes = undefined;
    }
    if (this.events === NO_EVENTS) this.events = [];
    if (this.events.length >= LIMIT) {
      this.events.shift();
      this.droppedEvents += 1;
    }
    const kept: Attributes = {};
    let count = 0;
    let dropped = 0;
    for (const [key, value] of Object.entries(sanitizeAttributes(attributes))) {
      if (count >= LIMIT) dropped += 1;
      else {
        kept[key] = value;
        count += 1;
      }
    }
    this.events.push({ name, attributes: kept, at: time === undefined ? performance.now() : reading(time), droppedAttributes: dropped });
    return this;
  }

  addLink(link: Link): this {
    if (this.ended) return this;
    if (this.links === NO_LINKS) this.links = [];
    if (this.links.length >= LIMIT) {
      this.links.shift();
      this.droppedLinks += 1;
    }
    const sanitized = Object.entries(sanitizeAttributes(link.attributes));
    const kept: Link = { context: link.context };
    if (sanitized.length > 0) kept.attributes = Object.fromEntries(sanitized.slice(0, LIMIT));
    if (sanitized.length > LIMIT) kept.droppedAttributesCount = sanitized.length - LIMIT;
    this.links.push(kept);
    return this;
  }

  addLinks(links: Link[]): this {
    for (const link of links) this.addLink(link);
    return this;
  }

  setStatus(status: SpanStatus): this {
    // As the SDK: UNSET changes nothing, OK is final, only an error keeps its message.
    if (this.ended || status.code === SpanStatusCode.UNSET || this.status.code === SpanStatusCode.OK) return this;
    this.status =
      status.code === SpanStatusCode.ERROR && typeof status.message === 'string' ? { code: status.code, message: status.message } : { code: status.code };
    return this;
  }

  updateName(name: string): this {
    if (!this.ended) this.name = name;
    return this;
  }

  recordException(exception: Exception, time?: TimeInput): void {
    const attributes = exceptionAttributes(exception);
    // As the SDK: an exception with neither a type nor a message records nothing.
    if (attributes['exception.type'] !== undefined || attributes['exception.message'] !== undefined) this.addEvent('exception', attributes, time);
  }

  end(endTime?: TimeInput): void {
    if (this.ended) return;
    this.ended = true;
    this.endedAt = Math.max(this.startedAt, endTime === undefined ? performance.now() : reading(endTime));
    this.sink.recorded(this);
  }
}
