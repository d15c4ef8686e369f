import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { PoolUse } from '../db/index.js';
import { RecentCounts } from './recent.js';
import { RouteHistogram } from './route-histogram.js';

/** What the metrics read when scraped (never on a request's path). */
export interface MetricSources {
  /** Jobs queued and not started. */
  jobsWaiting(): Promise<number>;
  /** Uploads holding a live reservation, by kind (tus, s3, plain…). */
  uploadsInProgress(): Promise<Partial<Record<string, number>>>;
  poolUse(): PoolUse | null;
}

/** Seconds; from a fast listing to a slow zip. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * The site's figures in Prometheus form, one registry per app (tests build
 * many apps in one process). The admin's Health page reads the same objects.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly requestDuration = new RouteHistogram({
    name: 'drive_http_request_duration_seconds',
    help: 'Time to answer a request, by route pattern (never the URL) and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
  });
  /** Read when scraped: a plain count on the request's path costs less than a gauge's labelled set. */
  private inFlight = 0;
  readonly uploadBytes = new Counter({
    name: 'drive_upload_bytes_total',
    help: 'Bytes of files received through the app, by way (multipart, tus, webdav).',
    labelNames: ['via'] as const,
    registers: [this.registry],
  });
  readonly downloadBytes = new Counter({
    name: 'drive_download_bytes_total',
    help: 'Bytes of files sent by the app (downloads, previews, zips, WebDAV reads), as written to the connection.',
    registers: [this.registry],
  });
  readonly jobRuns = new Counter({
    name: 'drive_job_runs_total',
    help: 'Tries of background jobs: ok, retry (failed, will run again) or failed (out of tries).',
    labelNames: ['job', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly jobDuration = new Histogram({
    name: 'drive_job_duration_seconds',
    help: 'Time one try of a background job took.',
    labelNames: ['job'] as const,
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
  });
  readonly deliveries = new Counter({
    name: 'drive_deliveries_total',
    help: 'Mail and web push deliveries: sent, or failed after every try.',
    labelNames: ['channel', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly serverErrors = new Counter({
    name: 'drive_server_errors_total',
    help: 'Failures on our side: 5xx answers (request) and jobs out of tries (job).',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  /** The same failures by minute, for "errors in the last hour" (this process). */
  readonly recentErrors = new RecentCounts(60);

  constructor(sources: MetricSources) {
    const registry = this.registry;
    const inFlight = () => this.inFlight;
    new Gauge({
      name: 'drive_http_requests_in_flight',
      help: 'Requests being answered now.',
      registers: [registry],
      collect() {
        this.set(inFlight());
      },
    });
    new Gauge({
      name: 'drive_jobs_waiting',
      help: 'Background jobs queued and not yet started.',
      registers: [registry],
      async collect() {
        this.set(await sources.jobsWaiting());
      },
    });
    new Gauge({
      name: 'drive_uploads_in_progress',
      help: 'Uploads holding a quota reservation, by kind (tus, s3 direct, plain, copy, finishing).',
      labelNames: ['kind'] as const,
      registers: [registry],
      async collect() {
        const counts = await sources.uploadsInProgress();
        this.reset();
        // The two kinds an operator watches are always present, at 0 when idle.
        for (const kind of ['tus', 's3']) this.set({ kind }, 0);
        for (const [kind, n] of Object.entries(counts)) this.set({ kind }, n ?? 0);
      },
    });
    new Gauge({
      name: 'drive_db_pool_connections',
      help: 'PostgreSQL pool connections by state (max, open, idle, in use) and queries waiting for one; absent on SQLite.',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        this.reset();
        const use = sources.poolUse();
        if (!use) return;
        this.set({ state: 'max' }, use.max);
        this.set({ state: 'open' }, use.total);
        this.set({ state: 'idle' }, use.idle);
        this.set({ state: 'in_use' }, use.total - use.idle);
        this.set({ state: 'waiting' }, use.waiting);
      },
    });
    // Process memory, CPU, handles, and event-loop delay (nodejs_eventloop_lag_*).
    collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
  }

  requestStarted(): void {
    this.inFlight += 1;
  }

  requestEnded(): void {
    this.inFlight -= 1;
  }

  /** A failure on our side, counted for /metrics and the last hour. */
  serverError(kind: 'request' | 'job'): void {
    this.serverErrors.inc({ kind });
    this.recentErrors.add(kind);
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
