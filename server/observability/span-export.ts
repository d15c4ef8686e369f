import type { Attributes, Context, SpanContext, SpanKind } from '@opentelemetry/api';
import { ExportResultCode, globalErrorHandler, type ExportResult, type InstrumentationScope } from '@opentelemetry/core';
import { convertLegacyHttpOptions, createOtlpHttpExportDelegate } from '@opentelemetry/otlp-exporter-base/node-http';
import { ProtobufTraceSerializer, type IExportTraceServiceResponse, type ISerializer } from '@opentelemetry/otlp-transformer';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-node';
import {
  exportRequest,
  exportRequestInPlace,
  headroomFor,
  resourceFields,
  scopeFields,
  writeLeafSpan,
  writeRecordedSpan,
  writeSdkSpan,
  type RecordedSpan,
} from './otlp-spans.js';
import { ProtoWriter } from './otlp-writer.js';

/** What one export carries: the request's bytes, written as its spans ended. */
interface EncodedBatch {
  bytes: Buffer;
  spans: number;
}

/** The maintained serializer's response side; the request side is already bytes. */
const serializer: ISerializer<EncodedBatch, IExportTraceServiceResponse> = {
  serializeRequest: (batch) => batch.bytes,
  deserializeResponse: (data) => ProtobufTraceSerializer.deserializeResponse(data),
};

interface ScopeBuffer {
  fields: { scope: Buffer; schemaUrl: Buffer };
  /** Its spans start at `headroom`: the room the export request's framing takes when this scope is a batch's only one. */
  writer: ProtoWriter;
  headroom: number;
}

export interface EncodingExportOptions {
  /** The OTLP/HTTP traces URL. */
  url: string;
  /** Spans in one export at most (the batch processor's maxExportBatchSize). */
  maxSpans: number;
  /** How long the first span of a batch waits for company before it is sent. */
  delayMs: number;
  /** Exports in flight before new batches are dropped (and reported), so a dead collector costs bounded memory. */
  concurrency: number;
  /** How long one export may take, its retries included (the transport's default, 10 s, when absent). */
  timeoutMs?: number;
}

const BATCH_BYTES = 1024 * 1024;

/** Buffers of sent batches kept for the next ones (their pages already mapped): enough to alternate. */
const SPARE_BUFFERS = 2;

/**
 * The span processor and exporter in one, for OTLP/HTTP protobuf: a span is
 * encoded when it ends (see otlp-spans.ts), spans are sent in batches of at
 * most `maxSpans` or 1 MiB, at the latest `delayMs` after the first, over the
 * maintained OTLP HTTP transport (its retries, timeouts, headers and
 * compression from the OTEL_EXPORTER_OTLP_* variables).
 */
export class EncodingSpanExporter implements SpanProcessor {
  private readonly resource: { resource: Buffer; schemaUrl: Buffer };
  private readonly scopes = new Map<InstrumentationScope, ScopeBuffer>();
  private readonly byName = new Map<string, ScopeBuffer>();
  private readonly delegate;
  private spans = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly sending = new Set<Promise<void>>();
  private closed = false;
  private readonly spare: Buffer[] = [];

  constructor(
    resource: Resource,
    private readonly options: EncodingExportOptions,
  ) {
    this.resource = resourceFields(resource);
    this.delegate = createOtlpHttpExportDelegate(
      convertLegacyHttpOptions({ url: options.url, concurrencyLimit: options.concurrency, timeoutMillis: options.timeoutMs }, 'TRACES', 'v1/traces', {
        'Content-Type': 'application/x-protobuf',
      }),
      serializer,
      'otlp_http_span_exporter',
      { name: 'span', countItems: (batch: EncodedBatch) => batch.spans },
      undefined,
    );
  }

  private writerFor(scope: InstrumentationScope): ProtoWriter {
    // The SDK hands every span of a tracer the same scope object; an equal scope given elsewhere (the leaf spans') joins it.
    let entry = this.scopes.get(scope);
    if (!entry) {
      const key = `${scope.name}\0${scope.version ?? ''}\0${scope.schemaUrl ?? ''}`;
      entry = this.byName.get(key) ?? this.scopeBuffer(scope);
      this.byName.set(key, entry);
      this.scopes.set(scope, entry);
    }
    return entry.writer;
  }

  private scopeBuffer(scope: InstrumentationScope): ScopeBuffer {
    const fields = scopeFields(scope);
    const headroom = headroomFor(this.resource, fields);
    const writer = new ProtoWriter();
    writer.pos = headroom;
    return { fields, writer, headroom };
  }

  private written(writer: ProtoWriter): void {
    this.spans += 1;
    if (this.spans >= this.options.maxSpans || writer.pos >= BATCH_BYTES) this.send();
    else if (!this.timer) {
      this.timer = setTimeout(() => this.send(), this.options.delayMs);
      this.timer.unref();
    }
  }

  onStart(_span: Span, _context: Context): void {}

  onEnd(span: ReadableSpan): void {
    if (this.closed || (span.spanContext().traceFlags & 1) === 0) return;
    const writer = this.writerFor(span.instrumentationScope);
    writeSdkSpan(writer, span);
    this.written(writer);
  }

  /** A span with no children under `parent`, written without an SDK span (see writeLeafSpan). */
  leaf(scope: InstrumentationScope, parent: SpanContext, name: string, kind: SpanKind, attributes: Attributes, startedAt: number, error: unknown): void {
    if (this.closed) return;
    const writer = this.writerFor(scope);
    writeLeafSpan(writer, parent, name, kind, attributes, startedAt, performance.now(), error);
    this.written(writer);
  }

  /** A span recorded without the SDK (server-span.ts), under `scope`; only sampled ones are recorded. */
  recordedIn(scope: InstrumentationScope): { recorded(span: RecordedSpan): void } {
    return {
      recorded: (span) => {
        if (this.closed) return;
        const writer = this.writerFor(scope);
        writeRecordedSpan(writer, span);
        this.written(writer);
      },
    };
  }

  private send(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.spans === 0) return;
    const ready = [...this.byName.values()].filter((entry) => entry.writer.pos > entry.headroom);
    let batch: EncodedBatch;
    let lent: Buffer | null = null;
    if (ready.length === 1) {
      // The usual case (every span of ours is the 'drive' scope's): the request is framed around the spans in place,
      // and the writer goes on in another buffer while this one is being sent.
      const { writer, fields, headroom } = ready[0]!;
      batch = { bytes: exportRequestInPlace(this.resource, fields, writer, headroom), spans: this.spans };
      lent = writer.buf;
      writer.buf = this.spare.pop() ?? Buffer.allocUnsafe(lent.length);
      writer.pos = headroom;
    } else {
      const scopes = ready.map((entry) => ({ ...entry.fields, spans: entry.writer.take(entry.headroom) }));
      batch = { bytes: exportRequest(this.resource, scopes), spans: this.spans };
    }
    this.spans = 0;
    const sent = new Promise<void>((resolve) => {
      this.delegate.export(batch, (result: ExportResult) => {
        if (result.error) globalErrorHandler(result.error);
        // Only a request answered is surely done with its bytes (one given up on may still be writing them).
        if (lent && result.code === ExportResultCode.SUCCESS && this.spare.length < SPARE_BUFFERS) this.spare.push(lent);
        resolve();
      });
    });
    this.sending.add(sent);
    void sent.then(() => this.sending.delete(sent));
  }

  async forceFlush(): Promise<void> {
    this.send();
    await Promise.all([...this.sending]);
  }

  async shutdown(): Promise<void> {
    if (this.closed) return;
    await this.forceFlush();
    this.closed = true;
    await this.delegate.shutdown();
  }
}
