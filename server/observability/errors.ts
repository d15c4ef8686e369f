import { trace } from '@opentelemetry/api';
import * as Sentry from '@sentry/node';
import type { FastifyError, FastifyInstance } from 'fastify';
import type { JobObserver } from '../lib/background.js';
import type { ObservabilityConfig } from './config.js';
import { routeOf } from './http-metrics.js';
import { currentLogIds } from './log-context.js';
import { scrubBreadcrumb, scrubEvent } from '../../common/scrub.js';
import { requestSpan } from './tracing.js';
import type { EffectiveObservability } from './settings.js';

/**
 * The event carries the trace it happened in (`contexts.trace`, which Sentry
 * and GlitchTip link to traces) and, as a tag, the trace id the log lines
 * carry: from an error report one finds the OTLP trace and the request's lines.
 */
function tieToTrace(scope: Sentry.Scope, span: { traceId: string; spanId: string; traceFlags: number } | undefined): void {
  if (span && trace.isSpanContextValid(span) && (span.traceFlags & 1) === 1) {
    scope.setPropagationContext({ traceId: span.traceId, propagationSpanId: span.spanId, sampleRand: Math.random(), sampled: true });
    scope.setTag('trace_id', span.traceId);
    return;
  }
  const traceId = currentLogIds()?.traceId;
  if (traceId) scope.setTag('trace_id', traceId);
}

/** How often a process looks again at the DSN setting (an admin's change needs no restart). */
export const DSN_RECHECK_MS = 60_000;

interface ReportLog {
  warn(obj: object, msg: string): void;
}

/**
 * Error reports to a Sentry-compatible service (Sentry, GlitchTip) with the
 * maintained SDK, when a DSN is set: 5xx errors of requests, jobs out of
 * tries, and the process's unhandled errors and rejections. Each request runs
 * in its own isolation scope (route, user id, request and trace ids, its
 * breadcrumbs); every event is scrubbed before it leaves (scrub.ts). Without a
 * DSN the hooks only test a boolean. Traces are OpenTelemetry's (tracing.ts),
 * so the SDK's own OpenTelemetry setup and tracing stay off.
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
    app.addHook('onRequest', (request, _reply, done) => {
      if (!this.enabled) return done();
      Sentry.withIsolationScope((scope) => {
        const route = routeOf(request);
        scope.setTransactionName(`${request.method} ${route}`);
        scope.setTag('route', route);
        scope.setTag('request_id', request.id);
        scope.addBreadcrumb({ category: 'request', message: `${request.method} ${route}`, level: 'info' });
        done();
      });
    });
    app.addHook('onError', (request, _reply, error: FastifyError, done) => {
      if (this.enabled && (error.statusCode ?? 500) >= 500) {
        Sentry.withScope((scope) => {
          // The caller is known only after authentication ran (a later hook than onRequest).
          if (request.user) scope.setUser({ id: String(request.user.id) });
          tieToTrace(scope, requestSpan(request.raw)?.spanContext());
          Sentry.captureException(error);
        });
      }
      done();
    });
  }

  /** A job out of tries is reported with its name (never its data: addresses, names). */
  jobObserver(): JobObserver {
    return {
      run: async (job, work) => {
        if (!this.enabled) return work();
        return Sentry.withIsolationScope(async (scope) => {
          scope.setTransactionName(`job ${job.name}`);
          scope.setTag('job', job.name);
          scope.addBreadcrumb({ category: 'job', message: `${job.name} try ${job.attempt} of ${job.attempts}`, level: 'info' });
          try {
            await work();
          } catch (error) {
            tieToTrace(scope, trace.getActiveSpan()?.spanContext());
            if (job.attempt >= job.attempts) Sentry.captureException(error);
            throw error;
          }
        });
      },
    };
  }

  /** Waits until queued reports are sent (tests, shutdown). */
  flush(timeoutMs = 2000): Promise<boolean> {
    return this.enabled ? Sentry.flush(timeoutMs) : Promise.resolve(true);
  }
}
