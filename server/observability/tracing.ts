import {
  context,
  INVALID_SPAN_CONTEXT,
  propagation,
  ROOT_CONTEXT,
  SamplingDecision,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Attributes,
  type Context,
  type Sampler,
  type Span,
  type SpanContext,
  type Tracer,
} from '@opentelemetry/api';
import type { InstrumentationScope } from '@opentelemetry/core';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOnSampler, BatchSpanProcessor, NodeTracerProvider, ParentBasedSampler, TraceIdRatioBasedSampler } from '@opentelemetry/sdk-trace-node';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { JobObserver } from '../lib/background.js';
import { activeTraceContext, SharedContextManager } from './async-context.js';
import type { OtlpProtocol } from './config.js';
import type { EffectiveObservability } from './settings.js';
import { randomHexId } from './otlp-writer.js';
import { ServerSpan, type RecordedSpanSink } from './server-span.js';
import { EncodingSpanExporter } from './span-export.js';

/**
 * The process's one tracer, or null when no OTLP endpoint is configured. It is
 * process-wide because OpenTelemetry's context and propagation are (a global
 * API); every instrumented place tests this one reference first, so tracing
 * off costs a null check and never allocates a span.
 */
let active: {
  tracer: Tracer;
  provider: NodeTracerProvider;
  key: string;
  /** With OTLP protobuf: the exporter that writes leaf spans without an SDK span (see leafSpan). */
  encoder: EncodingSpanExporter | null;
  scope: InstrumentationScope;
  sampler: Sampler;
  /** Rate 1: every root is sampled, so a request without a caller's context needs no sampler call. */
  sampleEveryRoot: boolean;
  /** With OTLP protobuf: where request spans recorded without the SDK go (see startRequestSpan). */
  serverSpans: RecordedSpanSink | null;
} | null = null;

export const tracingOn = (): boolean => active !== null;

export interface TracingIdentity {
  release: string;
  environment: string;
  protocol: OtlpProtocol;
}

/** Starts exporting to `endpoint` (OTLP/HTTP, protobuf or JSON) at `rate`; replaces a previous setup. */
export async function startTracing(endpoint: string, rate: number, identity: TracingIdentity): Promise<void> {
  await stopTracing();
  const [name, version] = identity.release.split('@');
  const resource = resourceFromAttributes({
    'service.name': name || 'drive',
    'service.version': version ?? identity.release,
    'deployment.environment.name': identity.environment,
  });
  // The defaults (2,048 queued, sent every 5 s) dropped half the spans of a loaded listing in the
  // observability bench; rate 1 means every span, so batches are drained every second.
  const batch = { maxSpans: 2048, delayMs: 1000 };
  const encoder = identity.protocol === 'http/json' ? null : new EncodingSpanExporter(resource, { url: endpoint, ...batch, concurrency: 8 });
  // A caller's decision (the page's traceparent) is kept, so a trace is whole or absent; our own roots use the rate.
  // Rate 1 (the spec's) samples every root without hashing its trace id.
  const sampler = new ParentBasedSampler({ root: rate >= 1 ? new AlwaysOnSampler() : new TraceIdRatioBasedSampler(rate) });
  const provider = new NodeTracerProvider({
    resource,
    sampler,
    spanProcessors: [
      encoder ??
        new BatchSpanProcessor(new JsonExporter({ url: endpoint }), {
          maxQueueSize: 16_384,
          maxExportBatchSize: batch.maxSpans,
          scheduledDelayMillis: batch.delayMs,
        }),
    ],
  });
  provider.register({ contextManager: new SharedContextManager() });
  const scope = { name: 'drive', version };
  active = {
    tracer: provider.getTracer('drive', version),
    provider,
    key: `${endpoint} ${rate}`,
    encoder,
    scope,
    sampler,
    sampleEveryRoot: rate >= 1,
    serverSpans: encoder ? encoder.recordedIn(scope) : null,
  };
}

export async function stopTracing(): Promise<void> {
  const current = active;
  if (!current) return;
  active = null;
  await current.provider.shutdown().catch(() => undefined);
  trace.disable();
  context.disable();
  propagation.disable();
}

/** Sends the spans ended so far (tests, benches, shutdown). */
export async function flushTracing(): Promise<void> {
  await active?.provider.forceFlush();
}

function record(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'error' });
}

/**
 * Runs `work` inside a child span of whatever is active (a request, a job).
 * Without tracing it is a plain call.
 */
export function inSpan<T>(name: string, attributes: Attributes, work: () => Promise<T>, kind: SpanKind = SpanKind.INTERNAL): Promise<T> {
  if (!active) return work();
  return active.tracer.startActiveSpan(name, { kind, attributes }, async (span) => {
    try {
      return await work();
    } catch (error) {
      record(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * A span with nothing below it (a database statement) under the active
 * request or job: started without making it the active context, which would
 * cost an async-context run per statement. Outside a request or job (the
 * scheduler's polling) it makes none, as Redis commands there make none.
 */
export function leafSpan<T>(name: string, attributes: Attributes, work: () => Promise<T>): Promise<T> {
  if (!active) return work();
  const parent = trace.getSpan(activeTraceContext());
  if (!parent) return work();
  const { encoder, scope } = active;
  if (encoder) {
    // Most spans of a request are its statements: written straight as bytes, they cost a fraction of an SDK span.
    const under = parent.spanContext();
    if ((under.traceFlags & TraceFlags.SAMPLED) === 0) return work();
    const startedAt = performance.now();
    return work().then(
      (result) => {
        encoder.leaf(scope, under, name, SpanKind.CLIENT, attributes, startedAt, undefined);
        return result;
      },
      (error: unknown) => {
        encoder.leaf(scope, under, name, SpanKind.CLIENT, attributes, startedAt, error);
        throw error;
      },
    );
  }
  const span = active.tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes });
  return work().then(
    (result) => {
      span.end();
      return result;
    },
    (error: unknown) => {
      record(span, error);
      span.end();
      throw error;
    },
  );
}

/**
 * A client span under the active request or job, ended by calling what it
 * returns (with the error, when the call failed); null while tracing is off or
 * outside a traced context. For calls whose result must not be wrapped in a
 * promise of ours (ioredis hands its own command promise back).
 */
export function childSpan(name: string, attributes: Attributes): ((error?: unknown) => void) | null {
  if (!active) return null;
  const parent = trace.getSpan(activeTraceContext());
  if (!parent) return null;
  const { encoder, scope } = active;
  if (encoder) {
    const under = parent.spanContext();
    if ((under.traceFlags & TraceFlags.SAMPLED) === 0) return null;
    const startedAt = performance.now();
    return (error?: unknown) => encoder.leaf(scope, under, name, SpanKind.CLIENT, attributes, startedAt, error);
  }
  const span = active.tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes });
  return (error?: unknown) => {
    if (error !== undefined) record(span, error);
    span.end();
  };
}

// ---- HTTP requests ----

/** The key under which the API keeps a context's span, learnt once through the public Context interface (setSpan sets it). */
const SPAN_KEY: symbol = (() => {
  let found: symbol | undefined;
  const probe: Context = {
    getValue: () => undefined,
    setValue: (key) => {
      found = key;
      return probe;
    },
    deleteValue: () => probe,
  };
  trace.setSpan(probe, trace.wrapSpanContext(INVALID_SPAN_CONTEXT));
  if (!found) throw new Error('tracing: the API did not set its span key through Context.setValue');
  return found;
})();

/**
 * A request's trace context: its parent's values and its span. `setSpan` on
 * the API's context copies the parent's map into a new one (two maps a
 * request, ~1 µs at rate 1); this answers reads from the two it has, and makes
 * the API's own context only if something sets or deletes a value under it.
 */
class RequestContext implements Context {
  constructor(
    private readonly parent: Context,
    private readonly span: Span,
  ) {}

  getValue(key: symbol): unknown {
    return key === SPAN_KEY ? this.span : this.parent.getValue(key);
  }

  setValue(key: symbol, value: unknown): Context {
    return this.parent.setValue(SPAN_KEY, this.span).setValue(key, value);
  }

  deleteValue(key: symbol): Context {
    return this.parent.setValue(SPAN_KEY, this.span).deleteValue(key);
  }
}

/** A request's server span and the context its handlers run in. */
export interface RequestTrace {
  span: Span;
  context: Context;
  ended: boolean;
}

/**
 * Starts the server span of a request, named by the route pattern (never the
 * URL: ids and link tokens stay out) with the request id, so a trace finds its
 * log lines; null while tracing is off. Continues the caller's `traceparent`
 * (the page), so page, server and database are one trace. Started when the
 * route is known, with every attribute at once: a rename and separate
 * attribute calls each cost the SDK its checks again.
 */
export function startRequestSpan(request: FastifyRequest): RequestTrace | null {
  if (!active) return null;
  const raw = request.raw;
  // Most requests carry no trace context (only the page's API calls do, while tracing is on).
  const parent = raw.headers.traceparent === undefined && raw.headers.baggage === undefined ? ROOT_CONTEXT : propagation.extract(ROOT_CONTEXT, raw.headers);
  const route = request.routeOptions.url;
  const name = route ? `${request.method} ${route}` : request.method;
  const attributes = {
    'http.request.method': request.method,
    'http.route': route ?? '(unmatched)',
    'url.scheme': request.protocol,
    'drive.request_id': request.id,
  };
  const span = active.serverSpans
    ? serverSpan(active.serverSpans, active.sampleEveryRoot ? null : active.sampler, parent, name, attributes)
    : active.tracer.startSpan(name, { kind: SpanKind.SERVER, attributes }, parent);
  return { span, context: new RequestContext(parent, span), ended: false };
}

/**
 * What the SDK tracer's startSpan decides (ids, the sampler's say, trace state), making a ServerSpan when sampled.
 * `sampler` null: every root is sampled (rate 1), and a caller's context is followed as ParentBasedSampler would.
 */
function serverSpan(sink: RecordedSpanSink, sampler: Sampler | null, parent: Context, name: string, attributes: Attributes): Span {
  const startedAt = performance.now();
  const given = trace.getSpanContext(parent);
  const under = given && trace.isSpanContextValid(given) ? given : undefined;
  const traceId = under?.traceId ?? randomHexId(16);
  const spanId = randomHexId(8);
  let sampled: boolean;
  let traceState = under?.traceState;
  let extra: Attributes | undefined;
  if (sampler) {
    const result = sampler.shouldSample(parent, traceId, name, SpanKind.SERVER, attributes, []);
    sampled = result.decision === SamplingDecision.RECORD_AND_SAMPLED;
    traceState = result.traceState ?? traceState;
    extra = result.attributes;
  } else {
    // ParentBasedSampler's defaults: a parent's sampled flag decides; no parent, the root sampler (always on).
    sampled = under ? (under.traceFlags & TraceFlags.SAMPLED) !== 0 : true;
  }
  const spanContext: SpanContext = traceState
    ? { traceId, spanId, traceFlags: sampled ? TraceFlags.SAMPLED : TraceFlags.NONE, traceState }
    : { traceId, spanId, traceFlags: sampled ? TraceFlags.SAMPLED : TraceFlags.NONE };
  // Our samplers never answer RECORD (recorded, not exported): what is not sampled is not recorded.
  if (!sampled) return trace.wrapSpanContext(spanContext);
  return new ServerSpan(sink, spanContext, under, name, extra ? { ...attributes, ...extra } : attributes, startedAt);
}

/** Records a failure on our side (5xx) on the request's span. */
export function recordRequestError(traced: RequestTrace, error: FastifyError): void {
  if ((error.statusCode ?? 500) >= 500) record(traced.span, error);
}

/** Ends the span with the answer's status, or marked aborted; once. */
export function endRequestSpan(traced: RequestTrace, reply: FastifyReply | null): void {
  if (traced.ended) return;
  traced.ended = true;
  const { span } = traced;
  if (!reply) {
    span.setAttribute('drive.aborted', true);
  } else {
    span.setAttribute('http.response.status_code', reply.statusCode);
    if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}

// ---- jobs ----

/**
 * Each try of a job is the root of its own trace: a job outlives the request
 * that queued it, and in-process workers would otherwise inherit whichever
 * request woke them. The queuing request, when there is one, is a link.
 */
export function jobTracing(): JobObserver {
  return {
    run(job, work) {
      if (!active) return work();
      const queuedBy = trace.getSpan(activeTraceContext())?.spanContext();
      return active.tracer.startActiveSpan(
        `job ${job.name}`,
        {
          kind: SpanKind.CONSUMER,
          root: true,
          attributes: { 'drive.job.name': job.name, 'drive.job.attempt': job.attempt, 'drive.job.attempts': job.attempts },
          links: queuedBy && trace.isSpanContextValid(queuedBy) ? [{ context: queuedBy }] : [],
        },
        async (span) => {
          try {
            await work();
          } catch (error) {
            record(span, error);
            throw error;
          } finally {
            span.end();
          }
        },
      );
    },
  };
}

// ---- the setting ----

/** The settings the exporter holds (see TracingSwitch.install). */
const TRACING_SETTINGS = ['observability.otlp_endpoint', 'observability.traces_sample_rate'];

/** How often a process looks again at the endpoint setting (the DSN's rhythm). */
export const TRACING_RECHECK_MS = 60_000;

interface TracingLog {
  warn(obj: object, msg: string): void;
}

/**
 * Follows the effective endpoint and rate (admin setting over
 * OTEL_EXPORTER_OTLP_ENDPOINT): starts, restarts or stops the exporter when
 * they change, and flushes on close.
 */
export class TracingSwitch {
  private timer: NodeJS.Timeout | null = null;
  private owner = false;

  constructor(
    private readonly identity: TracingIdentity,
    private readonly effective: () => Promise<EffectiveObservability>,
    private readonly log: TracingLog,
  ) {}

  private queue: Promise<void> = Promise.resolve();

  /** One refresh at a time: the recheck timer and a save may ask together, and two starts would leave two providers. */
  refresh(): Promise<void> {
    const next = this.queue.then(() => this.apply());
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async apply(): Promise<void> {
    const { otlpEndpoint, tracesSampleRate } = await this.effective();
    const key = otlpEndpoint ? `${otlpEndpoint} ${tracesSampleRate}` : null;
    if (key === (this.owner && active ? active.key : null)) return;
    if (!otlpEndpoint) {
      if (this.owner) await stopTracing();
      this.owner = false;
      return;
    }
    await startTracing(otlpEndpoint, tracesSampleRate, this.identity);
    this.owner = true;
    this.log.warn({ host: new URL(otlpEndpoint).host, sampleRate: tracesSampleRate }, 'tracing on');
  }

  /** `onSaved`: a save of the endpoint or the rate in this process applies at once, not at the next recheck. */
  install(app: FastifyInstance, onSaved?: (listener: (keys: string[]) => void) => () => void): void {
    let unsubscribe: (() => void) | undefined;
    app.addHook('onReady', async () => {
      await this.refresh().catch((error: unknown) => this.log.warn({ err: error }, 'tracing: could not read the endpoint'));
      this.timer = setInterval(() => void this.refresh().catch(() => undefined), TRACING_RECHECK_MS);
      this.timer.unref();
      unsubscribe = onSaved?.((keys) => {
        if (keys.some((key) => TRACING_SETTINGS.includes(key))) {
          void this.refresh().catch((error: unknown) => this.log.warn({ err: error }, 'tracing: could not apply the new setting'));
        }
      });
    });
    app.addHook('onClose', async () => {
      unsubscribe?.();
      await this.queue;
      if (this.timer) clearInterval(this.timer);
      if (this.owner) await stopTracing();
      this.owner = false;
    });
  }

  flush(): Promise<void> {
    return flushTracing();
  }

  /** Resolves once the refreshes asked for so far have applied. */
  settled(): Promise<void> {
    return this.queue;
  }
}
