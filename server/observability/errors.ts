import { trace } from '@opentelemetry/api';
import * as Sentry from '@sentry/node';
import type { FastifyError, FastifyInstance } from 'fastify';
import type { JobObserver } from '../lib/background.js';
import type { ObservabilityConfig } from './config.js';
import { routeOf } from './http-metrics.js';
import { currentLogIds } from './log-context.js';
import { scrubBreadcrumb, scrubEvent } from '../../common/scrub.js';
import { requestTraceOf } from './request-observation.js';
import type { EffectiveObservability } from './settings.js';

type SpanIds = { traceId: string; spanId: string; traceFlags: number };

/**
 * The event carries the trace it happened in (`contexts.trace`, which Sentry
 * and GlitchTip link to traces) and, as a tag, the trace id the log lines
 * carry: from an error report one finds the OTLP trace and the request's lines.
 */
function traceOf(span: SpanIds | undefined): { traceId?: string; context?: { trace_id: string; span_id: string } } {
  if (span && trace.isSpanContextValid(span) && (span.traceFlags & 1) === 1) {
    return { traceId: span.traceId, context: { trace_id: span.traceId, span_id: span.spanId } };
  }
  return { traceId: currentLogIds()?.traceId };
}

/** How often a process looks again at the DSN setting (an admin's change needs no restart). */
export const DSN_RECHECK_MS = 60_000;

interface ReportLog {
  warn(obj: object, msg: string): void;
}

/**
 * Error reports to a Sentry-compatible service (Sentry, GlitchTip) with the
 * maintained SDK, when a DSN is set: 5xx errors of requests, jobs out of
 * tries, and the process's unhandled errors and rejections. Every event is
 * scrubbed before it leaves (scrub.ts). Traces are OpenTelemetry's
 * (tracing.ts), so the SDK's own OpenTelemetry setup and tracing stay off.
 *
 * A report's context (route, user id, request and trace ids, the breadcrumbs
 * of its request or job) is built when there is something to report, from
 * what Fastify and the job runner already hold, not kept in a Sentry scope
 * per request: forking two scopes, a trace id and an async-context run for
 * every request was most of what reporting cost at rate 1 (issue 33's
 * benchmark), for the rare request that fails. The process's own breadcrumbs
 * are left out of a request's report, so one request never carries another's.
 */
export class ErrorReports {
  private dsn: string | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly config: ObservabilityConfig,
    private readonly effective: () => Promise<EffectiveObservability>,
    private readonly log: ReportLog,
  ) {}

  get enabled(): boolean {
    return this.dsn !== null;
  }

  /** Reads the DSN and sample rate; (re)starts or stops the SDK when they changed. */
  async refresh(): Promise<void> {
    const { sentryDsn, sampleRate } = await this.effective();
    const key = sentryDsn ? `${sentryDsn} ${sampleRate}` : null;
    if (key === (this.dsn ? `${this.dsn} ${Sentry.getClient()?.getOptions().sampleRate}` : null)) return;
    if (this.dsn) await Sentry.close(2000);
    this.dsn = null;
    if (!sentryDsn) return;
    Sentry.initWithoutDefaultIntegrations({
      dsn: sentryDsn,
      release: this.config.release,
      environment: this.config.environment,
      sampleRate,
      // Nothing about the person or the request but what the scopes below set (user id, route).
      dataCollection: { userInfo: false, cookies: false, httpHeaders: false, httpBodies: [], urlQueryParams: false, databaseQueryData: false, queues: false },
      // OpenTelemetry (tracing.ts) owns traces; the SDK keeps to errors and uses plain async context.
      enableOpenTelemetrySetup: false,
      enableRuntimeChannelInjection: false,
      sendClientReports: false,
      integrations: [
        Sentry.eventFiltersIntegration(),
        Sentry.functionToStringIntegration(),
        Sentry.linkedErrorsIntegration(),
        Sentry.dedupeIntegration(),
        Sentry.nodeContextIntegration(),
        Sentry.consoleIntegration(),
        Sentry.onUncaughtExceptionIntegration(),
        Sentry.onUnhandledRejectionIntegration({ mode: 'warn' }),
      ],
      beforeSend: (event) => scrubEvent(event),
      beforeBreadcrumb: (crumb) => scrubBreadcrumb(crumb),
    });
    this.dsn = sentryDsn;
    this.log.warn({ host: new URL(sentryDsn).host, sampleRate }, 'error reporting on');
  }

  /** Starts reading the setting now and every minute; stops with the app. */
  install(app: FastifyInstance): void {
    app.addHook('onReady', async () => {
      await this.refresh().catch((error: unknown) => this.log.warn({ err: error }, 'error reporting: could not read the DSN'));
      this.timer = setInterval(() => void this.refresh().catch(() => undefined), DSN_RECHECK_MS);
      this.timer.unref();
    });
    app.addHook('onClose', async () => {
      if (this.timer) clearInterval(this.timer);
      if (this.dsn) await Sentry.close(2000);
      this.dsn = null;
    });
    app.addHook('onError', (request, _reply, error: FastifyError, done) => {
      if (this.enabled && (error.statusCode ?? 500) >= 500) {
        const route = routeOf(request);
        this.capture(
          error,
          `${request.method} ${route}`,
          { route, request_id: request.id },
          {
            // Known only after authentication ran (a later hook than onRequest).
            userId: request.user?.id,
            crumb: { category: 'request', message: `${request.method} ${route}` },
            span: requestTraceOf(request)?.span.spanContext(),
          },
        );
      }
      done();
    });
  }

  /** A job out of tries is reported with its name (never its data: addresses, names). */
  jobObserver(): JobObserver {
    return {
      run: async (job, work) => {
        if (!this.enabled) return work();
        try {
          await work();
        } catch (error) {
          if (job.attempt >= job.attempts) {
            this.capture(
              error,
              `job ${job.name}`,
              { job: job.name },
              {
                crumb: { category: 'job', message: `${job.name} try ${job.attempt} of ${job.attempts}` },
                span: trace.getActiveSpan()?.spanContext(),
              },
            );
          }
          throw error;
        }
      },
    };
  }

  /**
   * One report, its context set on a copy of the process's scope (the SDK's
   * captureContext): no async-context run, so nothing is paid per request.
   */
  private capture(
    error: unknown,
    transaction: string,
    tags: Record<string, string>,
    context: { userId?: number | string; crumb: { category: string; message: string }; span?: SpanIds },
  ): void {
    const crumb = { ...context.crumb, level: 'info' as const, timestamp: Date.now() / 1000 };
    const traced = traceOf(context.span);
    Sentry.captureException(error, (scope) => {
      // Runs after the SDK applied the scopes (their breadcrumbs, its own trace context), before scrubEvent.
      scope.addEventProcessor((event) => ({
        ...event,
        breadcrumbs: [crumb],
        contexts: traced.context ? { ...event.contexts, trace: { ...event.contexts?.trace, ...traced.context } } : event.contexts,
      }));
      scope.setTransactionName(transaction);
      scope.setTags(traced.traceId ? { ...tags, trace_id: traced.traceId } : tags);
      if (context.userId !== undefined) scope.setUser({ id: String(context.userId) });
      return scope;
    });
  }

  /** Waits until queued reports are sent (tests, shutdown). */
  flush(timeoutMs = 2000): Promise<boolean> {
    return this.enabled ? Sentry.flush(timeoutMs) : Promise.resolve(true);
  }
}
