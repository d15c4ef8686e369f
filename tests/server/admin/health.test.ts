import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobMap, JobQueue } from '../../../server/lib/background.js';
import { appVersion } from '../../../server/observability/config.js';
import { TestClient } from '../support/client.js';
import { signedInUser } from '../support/drive-factories.js';
import { createTestApp, DIALECT, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

interface Health {
  uptime_seconds: number;
  started_at: string;
  versions: { app: string; node: string; database: string | null };
  database: { status: string; dialect: string; ms: number };
  storage: { status: string; driver: string };
  metrics: boolean;
  errors: { last_hour: { request: number; job: number }; per_minute: { minute: string; request: number; job: number }[] } | null;
  slowest_routes: { method: string; route: string; count: number; average_ms: number }[] | null;
  jobs: { waiting: number; runs: { job: string; ok: number; retry: number; failed: number }[] | null };
  deliveries: { channel: string; sent: number; failed: number }[] | null;
}

/** Issue 33 §5: Admin → Health, from the same figures as /metrics plus live probes. */
describe('GET /api/v1/admin/health', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      beforeReady: (app: FastifyInstance) => {
        app.get('/api/v1/test/health-boom', async () => {
          throw new Error('boom');
        });
        (servicesOf(app).jobs as unknown as JobQueue<JobMap>).define(
          'health-fails',
          async () => {
            throw new Error('nope');
          },
          { attempts: 2 },
        );
      },
    });
  });
  afterAll(() => t?.close());

  it('asks a guest to sign in', async () => {
    expect((await new TestClient(t.app).get('/api/v1/admin/health')).statusCode).toBe(401);
  });

  it('refuses a user without reports.view', async () => {
    const { client } = await signedInUser(t.app);
    expect((await client.get('/api/v1/admin/health')).statusCode).toBe(403);
  });

  it('answers 404 below it (no sub-resources)', async () => {
    const { client } = await signedInUser(t.app, { roles: ['admin'] });
    expect((await client.get('/api/v1/admin/health/database')).statusCode).toBe(404);
  });

  it('counts errors of the last hour, job failures, the slowest routes, and probes the database and storage', async () => {
    const { client } = await signedInUser(t.app, { roles: ['admin'] });
    const before = (await client.get('/api/v1/admin/health')).json() as Health;
    expect(before.errors?.last_hour).toEqual({ request: 0, job: 0 });

    for (let i = 0; i < 2; i += 1) expect((await t.app.inject({ url: '/api/v1/test/health-boom' })).statusCode).toBe(500);
    // A route's time as the request hook records it (tests/server/observability covers the hook itself): a known
    // duration, so which routes lead does not depend on how busy the machine is.
    t.app.observability.metrics!.requestDuration.observe({ method: 'GET', route: '/api/v1/test/health-slow', status: '200' }, 30);
    await (servicesOf(t.app).jobs as unknown as JobQueue<JobMap>).enqueue('health-fails', {});
    await servicesOf(t.app).jobs.idle();

    const response = await client.get('/api/v1/admin/health');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const health = response.json() as Health;
    expect(health.errors?.last_hour).toEqual({ request: 2, job: 1 });
    expect(health.errors?.per_minute).toHaveLength(60);
    // The minute may turn between the failures and the read (CI saw the requests in one minute and the job in the
    // next): all of them are in the last two.
    const lastTwo = health.errors!.per_minute.slice(-2);
    expect({ request: lastTwo.reduce((n, m) => n + m.request, 0), job: lastTwo.reduce((n, m) => n + m.job, 0) }).toEqual({ request: 2, job: 1 });
    expect(health.jobs.runs).toContainEqual({ job: 'health-fails', ok: 0, retry: 1, failed: 1 });
    expect(health.jobs.waiting).toBe(0);
    // Slowest first, five at most, averaged per route.
    const averages = health.slowest_routes!.map((r) => r.average_ms);
    expect(averages).toEqual([...averages].sort((a, b) => b - a));
    expect(averages.length).toBeLessThanOrEqual(5);
    expect(health.slowest_routes![0]).toEqual({ method: 'GET', route: '/api/v1/test/health-slow', count: 1, average_ms: 30_000 });
    expect(health.deliveries).toEqual([
      { channel: 'mail', sent: 0, failed: 0 },
      { channel: 'push', sent: 0, failed: 0 },
    ]);
    expect(health.database).toMatchObject({ status: 'ok', dialect: DIALECT });
    expect(health.storage).toMatchObject({ status: 'ok', driver: 'local' });
    expect(health.versions.app).toBe(appVersion());
    expect(health.versions.node).toBe(process.version);
    expect(health.versions.database).toMatch(DIALECT === 'postgres' ? /^PostgreSQL \d+/ : /^SQLite 3\.\d+/);
    expect(health.uptime_seconds).toBeGreaterThanOrEqual(0);
    expect(Date.parse(health.started_at)).toBeLessThanOrEqual(Date.now());
  });
});

describe('Admin → Health on S3 storage', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ disk: 's3', env: { METRICS_ENABLED: 'false' } });
  });
  afterAll(() => t?.close());

  it('reports the bucket reachable, then unreachable once it is gone; counts are unknown with metrics off', async () => {
    const { client } = await signedInUser(t.app, { roles: ['admin'] });
    const up = (await client.get('/api/v1/admin/health')).json() as Health;
    expect(up.storage).toMatchObject({ status: 'ok', driver: 's3' });
    expect(up.metrics).toBe(false);
    expect(up.errors).toBeNull();
    expect(up.slowest_routes).toBeNull();
    expect(up.jobs.runs).toBeNull();

    await t.s3!.close();
    const down = (await client.get('/api/v1/admin/health')).json() as Health;
    expect(down.storage).toMatchObject({ status: 'error', driver: 's3' });
    expect(down.database.status).toBe('ok');
  });
});
