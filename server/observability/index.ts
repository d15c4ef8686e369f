import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/index.js';
import type { JobObserver, JobQueue, JobMap } from '../lib/background.js';
import type { ObservabilityConfig } from './config.js';
import { clientRoutes } from './client-routes.js';
import { ErrorReports } from './errors.js';
import { chainObservers, jobMetrics } from './job-metrics.js';
import { Metrics } from './metrics.js';
import { metricsRoute } from './metrics-route.js';
import type { RequestObservation } from './request-observation.js';
import { jobTracing, TracingSwitch } from './tracing.js';
import { effectiveObservability, type EffectiveObservability, type SettingsReader } from './settings.js';

/** What the observability parts need from the app's services: narrow, so this folder never imports the composition root. */
export interface ObservedServices {
  settings: SettingsReader;
  jobs: JobQueue<JobMap>;
  db: Pick<Db, 'poolUse'>;
  uploadsInProgress(): Promise<Partial<Record<string, number>>>;
}

export interface Observability {
  /** Null when METRICS_ENABLED=false: nothing is counted. */
  metrics: Metrics | null;
  errors: ErrorReports;
  /** OpenTelemetry traces over OTLP/HTTP while an endpoint is configured. */
  tracing: TracingSwitch;
  effective(): Promise<EffectiveObservability>;
}

declare module 'fastify' {
  interface FastifyInstance {
    observability: Observability;
  }
}

/**
 * Metrics, error reports and traces for the app. Called once from buildApp
 * after the services exist; each request's part runs in `requests`' hooks
 * (request-observation.ts, registered first), which count for the metrics
 * made here. Metrics off costs no work on a request; error reports and
 * traces follow a setting, so their checks stay and test one reference while off.
 */
export function installObservability(
  app: FastifyInstance,
  config: ObservabilityConfig,
  services: ObservedServices,
  requests: RequestObservation,
): Observability {
  const metrics = config.metricsEnabled
    ? new Metrics({
        jobsWaiting: () => services.jobs.waiting(),
        uploadsInProgress: () => services.uploadsInProgress(),
        poolUse: () => services.db.poolUse(),
      })
    : null;
  const effective = () => effectiveObservability(services.settings, config);
  // The job's span is outermost, so its error report and its timing belong to its trace.
  const observers: JobObserver[] = [jobTracing()];
  const tracing = new TracingSwitch({ release: config.release, environment: config.environment, protocol: config.otlpProtocol }, effective, app.log);
  tracing.install(app, services.settings.onSaved?.bind(services.settings));
  if (metrics) {
    requests.countDownloads(app, metrics);
    observers.push(jobMetrics(metrics));
  }
  const errors = new ErrorReports(config, effective, app.log);
  errors.install(app);
  observers.push(errors.jobObserver());
  services.jobs.observe(chainObservers(observers));
  const observability: Observability = { metrics, errors, tracing, effective };
  app.decorate('observability', observability);
  if (metrics) metricsRoute(app, metrics, observability.effective);
  clientRoutes(app, config, effective);
  return observability;
}
