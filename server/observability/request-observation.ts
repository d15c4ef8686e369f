import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { runWithIds } from './async-context.js';
import { countDownload, observeAnswer } from './http-metrics.js';
import { REQUEST_ID_HEADER, traceIdFor, withTraceId } from './log-context.js';
import type { Metrics } from './metrics.js';
import { endRequestSpan, recordRequestError, startRequestSpan, type RequestTrace } from './tracing.js';

const TRACED = Symbol('requestTrace');
const COUNTED = Symbol('inFlight');

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's server span while tracing is on (tracing.ts). */
    [TRACED]: RequestTrace | null;
    /** Whether the in-flight gauge counts this request still. */
    [COUNTED]: boolean;
  }
}

/**
 * What every request does for the logs, traces and metrics, in one hook per
 * phase rather than one per concern: the request id in X-Request-Id and in
 * async context (the log lines of services, async-context.ts), the server
 * span made the active trace context in the same run, the in-flight count;
 * at the end, the span's status and the duration by route. Each hook Fastify
 * runs costs its own turn of the hook chain, and two async-context runs cost
 * two; at rate 1 on a listing that costs ~0.5 ms in all, the difference
 * showed in issue 33's bench.
 *
 * Registered first, so every later hook and handler runs in the context it
 * opens. `metrics` is set once the app's metrics exist (countDownloads);
 * while it is null (metrics off) none of their work runs.
 */
export class RequestObservation {
  metrics: Metrics | null = null;

  install(app: FastifyInstance): void {
    // Declared, so every request object has the same shape from its construction (an added property would change it).
    app.decorateRequest(TRACED, null);
    app.decorateRequest(COUNTED, false);

    // Named: Fastify's route listing (printRoutes) shows hooks by name, and a test tells ours from a plugin's by it.
    const observeRequestStart = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
      void reply.header(REQUEST_ID_HEADER, request.id);
      const metrics = this.metrics;
      if (metrics) {
        metrics.requestStarted();
        request[COUNTED] = true;
      }
      const traced = startRequestSpan(request);
      request[TRACED] = traced;
      const traceId = traced ? traceIdFor(traced.span.spanContext(), request.headers) : traceIdOfCaller(request);
      withTraceId(request.log, traceId);
      runWithIds(traceId ? { reqId: request.id, traceId } : { reqId: request.id }, done, traced?.context);
    };
    const observeRequestError = (request: FastifyRequest, _reply: FastifyReply, error: FastifyError, done: HookHandlerDoneFunction): void => {
      const traced = request[TRACED];
      if (traced) recordRequestError(traced, error);
      done();
    };
    const observeRequestEnd = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
      const metrics = this.metrics;
      if (metrics) {
        this.settle(request, metrics);
        observeAnswer(request, reply, metrics);
      }
      const traced = request[TRACED];
      if (traced) endRequestSpan(traced, reply);
      done();
    };
    const observeRequestAbort = (request: FastifyRequest, done: HookHandlerDoneFunction): void => {
      if (this.metrics) this.settle(request, this.metrics);
      const traced = request[TRACED];
      if (traced) endRequestSpan(traced, null);
      done();
    };
    app.addHook('onRequest', observeRequestStart);
    app.addHook('onError', observeRequestError);
    app.addHook('onResponse', observeRequestEnd);
    app.addHook('onRequestAbort', observeRequestAbort);
  }

  /** With metrics on: files' bytes counted as they leave (a hook that only a site counting them pays for). */
  countDownloads(app: FastifyInstance, metrics: Metrics): void {
    this.metrics = metrics;
    app.addHook('onSend', function countDownloadBytes(request, reply, payload, done) {
      countDownload(request, reply, metrics);
      done(null, payload);
    });
  }

  /** Out of the in-flight count, once (an aborted request may still reach onResponse). */
  private settle(request: FastifyRequest, metrics: Metrics): void {
    if (!request[COUNTED]) return;
    request[COUNTED] = false;
    metrics.requestEnded();
  }
}

/** Without a span of ours: the caller's trace id, when it sent one. */
function traceIdOfCaller(request: FastifyRequest): string | undefined {
  return request.headers.traceparent === undefined ? undefined : traceIdFor(undefined, request.headers);
}

/** The request's server span while tracing made one (ended or not): error reports name the trace. */
export function requestTraceOf(request: FastifyRequest): RequestTrace | null {
  return request[TRACED];
}
