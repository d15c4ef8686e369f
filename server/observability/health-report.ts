import type { Metrics } from './metrics.js';

export interface Reachability {
  status: 'ok' | 'error';
  /** How long the probe took, in milliseconds. */
  ms: number;
}

/** What the admin's Health page reads (narrow: no composition root here). */
export interface HealthSources {
  /** Null when METRICS_ENABLED=false: counts are then unknown, not zero. */
  metrics: Metrics | null;
  jobsWaiting(): Promise<number>;
  database: { dialect: 'sqlite' | 'postgres'; ping(): Promise<void>; serverVersion(): Promise<string | null> };
  storage: { driver: 'local' | 's3'; probe(): Promise<void> };
  appVersion: string;
  errorReporting: boolean;
  tracing: boolean;
  log: { warn(obj: object, msg: string): void };
  now?: () => number;
}

export interface HealthReport {
  generated_at: string;
  uptime_seconds: number;
  started_at: string;
  versions: { app: string; node: string; database: string | null };
  database: Reachability & { dialect: 'sqlite' | 'postgres' };
  storage: Reachability & { driver: 'local' | 's3' };
  metrics: boolean;
  error_reporting: boolean;
  tracing: boolean;
  errors: { last_hour: { request: number; job: number }; per_minute: { minute: string; request: number; job: number }[] } | null;
  slowest_routes: { method: string; route: string; count: number; average_ms: number }[] | null;
  jobs: { waiting: number; runs: { job: string; ok: number; retry: number; failed: number }[] | null };
  deliveries: { channel: string; sent: number; failed: number }[] | null;
}

/** Probes with a deadline: an unreachable bucket must not hold the page for the SDK's whole retry budget. */
const PROBE_TIMEOUT_MS = 5000;

async function reach(what: string, probe: () => Promise<void>, log: HealthSources['log']): Promise<Reachability> {
  const start = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      probe(),
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer in ${PROBE_TIMEOUT_MS} ms`)), PROBE_TIMEOUT_MS);
      }),
    ]);
    return { status: 'ok', ms: Math.round(performance.now() - start) };
  } catch (error) {
    // The page says what failed; why (paths, driver messages) goes to the log only.
    log.warn({ err: error }, `health: ${what} unreachable`);
    return { status: 'error', ms: Math.round(performance.now() - start) };
  } finally {
    clearTimeout(timer);
  }
}

type Values = { labels: Partial<Record<string, string | number>>; value: number; metricName?: string }[];

async function slowestRoutes(metrics: Metrics, limit: number): Promise<HealthReport['slowest_routes']> {
  const { values } = (await metrics.requestDuration.get()) as { values: Values };
  const byRoute = new Map<string, { method: string; route: string; sum: number; count: number }>();
  for (const v of values) {
    const suffix = v.metricName?.endsWith('_sum') ? 'sum' : v.metricName?.endsWith('_count') ? 'count' : null;
    if (!suffix) continue;
    const method = String(v.labels.method ?? '');
    const route = String(v.labels.route ?? '');
    const key = `${method} ${route}`;
    const entry = byRoute.get(key) ?? { method, route, sum: 0, count: 0 };
    entry[suffix] += v.value;
    byRoute.set(key, entry);
  }
  return [...byRoute.values()]
    .filter((r) => r.count > 0)
    .map((r) => ({ method: r.method, route: r.route, count: r.count, average_ms: Math.round((r.sum / r.count) * 10_000) / 10 }))
    .sort((a, b) => b.average_ms - a.average_ms)
    .slice(0, limit);
}

async function jobRuns(metrics: Metrics): Promise<NonNullable<HealthReport['jobs']['runs']>> {
  const { values } = (await metrics.jobRuns.get()) as { values: Values };
  const byJob = new Map<string, { job: string; ok: number; retry: number; failed: number }>();
  for (const v of values) {
    const job = String(v.labels.job ?? '');
    const outcome = v.labels.outcome;
    const entry = byJob.get(job) ?? { job, ok: 0, retry: 0, failed: 0 };
    if (outcome === 'ok' || outcome === 'retry' || outcome === 'failed') entry[outcome] += v.value;
    byJob.set(job, entry);
  }
  return [...byJob.values()].sort((a, b) => b.failed - a.failed || a.job.localeCompare(b.job));
}

async function deliveries(metrics: Metrics): Promise<NonNullable<HealthReport['deliveries']>> {
  const { values } = (await metrics.deliveries.get()) as { values: Values };
  const byChannel = new Map<string, { channel: string; sent: number; failed: number }>(
    ['mail', 'push'].map((channel) => [channel, { channel, sent: 0, failed: 0 }]),
  );
  for (const v of values) {
    const channel = String(v.labels.channel ?? '');
    const entry = byChannel.get(channel) ?? { channel, sent: 0, failed: 0 };
    if (v.labels.outcome === 'sent' || v.labels.outcome === 'failed') entry[v.labels.outcome] += v.value;
    byChannel.set(channel, entry);
  }
  return [...byChannel.values()];
}

/**
 * What an admin needs at a glance, from the same figures /metrics serves
 * (this process's, since it started) plus live probes of the database and
 * the storage.
 */
export async function healthReport(sources: HealthSources): Promise<HealthReport> {
  const now = (sources.now ?? Date.now)();
  const uptime = process.uptime();
  const { metrics } = sources;
  const [database, storage, databaseVersion, waiting] = await Promise.all([
    reach('database', () => sources.database.ping(), sources.log),
    reach('storage', () => sources.storage.probe(), sources.log),
    sources.database.serverVersion().catch(() => null),
    sources.jobsWaiting(),
  ]);
  const recent = metrics?.recentErrors.read();
  return {
    generated_at: new Date(now).toISOString(),
    uptime_seconds: Math.floor(uptime),
    started_at: new Date(now - uptime * 1000).toISOString(),
    versions: { app: sources.appVersion, node: process.version, database: databaseVersion },
    database: { ...database, dialect: sources.database.dialect },
    storage: { ...storage, driver: sources.storage.driver },
    metrics: metrics !== null,
    error_reporting: sources.errorReporting,
    tracing: sources.tracing,
    errors: recent
      ? {
          last_hour: { request: recent.totals.request ?? 0, job: recent.totals.job ?? 0 },
          per_minute: recent.perMinute.map((m) => ({
            minute: new Date(m.minute * 60_000).toISOString(),
            request: m.counts.request ?? 0,
            job: m.counts.job ?? 0,
          })),
        }
      : null,
    slowest_routes: metrics ? await slowestRoutes(metrics, 5) : null,
    jobs: { waiting, runs: metrics ? await jobRuns(metrics) : null },
    deliveries: metrics ? await deliveries(metrics) : null,
  };
}
