import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/index.js';
import type { JobObserver, JobQueue, JobMap } from '../lib/background.js';
import type { ObservabilityConfig } from './config.js';
import { clientRoutes } from './client-routes.js';
import { ErrorReports } from './errors.js';
import { installHttpMetrics } from './http-metrics.js';
import { chainObservers, jobMetrics } from './job-metrics.js';
import { Metrics } from './metrics.js';
import { metricsRoute } from './metrics-route.js';
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
  effective(): Promise<EffectiveObservability>;
}

declare module 'fastify' {
  interface FastifyInstance {
    observability: Observability;
  }
}

/**
 * Hooks metrics (and, as configured, error reports and traces) into the app.
 * Called once from buildApp after the services exist; each part off costs
 * no hook at all.
 */
export function installObservability(app: FastifyInstance, config: ObservabilityConfig, services: ObservedServices): Observability {
  const metrics = config.metricsEnabled
    ? new Metrics({
        jobsWaiting: () => services.jobs.waiting(),
        uploadsInProgress: () => services.uploadsInProgress(),
        poolUse: () => services.db.poolUse(),
      })
    : null;
  const observers: JobObserver[] = [];
  if (metrics) {
    installHttpMetrics(app, metrics);
    observers.push(jobMetrics(metrics));
  }
  const effective = () => effectiveObservability(services.settings, config);
  const errors = new ErrorReports(config, effective, app.log);
  errors.install(app);
  observers.push(errors.jobObserver());
  services.jobs.observe(chainObservers(observers));
  const observability: Observability = { metrics, errors, effective };
  app.decorate('observability', observability);
  if (metrics) metricsRoute(app, metrics, observability.effective);
  clientRoutes(app, config, effective);
  return observability;
}
