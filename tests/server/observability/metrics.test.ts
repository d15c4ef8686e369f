import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobMap, JobQueue } from '../../../server/lib/background.js';
import { signedInUser, uploadFile } from '../support/drive-factories.js';
import { setSettingsForTest } from '../support/settings.js';
import { createTestApp, DIALECT, type TestApp } from '../support/test-app.js';
import { createTusUpload, multipartUpload } from '../uploads/support.js';
import { histogramCount, parseScrape, valueOf, type Scrape } from './prometheus.js';
import { servicesOf } from '../support/services-handle.js';

const TOKEN = 'scrape-token-0123456789abcdef';

/** Issue 33 §3: /metrics in Prometheus format, behind a token or an allow-list. */
describe('GET /metrics', () => {
  let t: TestApp;
  let release: () => void = () => {};
  beforeAll(async () => {
    t = await createTestApp({
      env: { METRICS_TOKEN: TOKEN },
      beforeReady: (app: FastifyInstance) => {
        app.get('/test/boom', async () => {
          throw new Error('boom');
        });
        app.get('/test/held', async () => {
          await new Promise<void>((resolve) => (release = resolve));
          return { ok: true };
        });
        const jobs = servicesOf(app).jobs as unknown as JobQueue<JobMap>;
        jobs.define('probe', async ({ fail }: { fail?: boolean }) => {
          if (fail) throw new Error('probe failed');
        });
      },
    });
  });
  afterAll(async () => t.close());

  const scrape = async (): Promise<Scrape> => {
    const response = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.statusCode).toBe(200);
    return parseScrape(response.body);
  };

  describe('who may read it', () => {
    it('answers 401 without a token', async () => {
      const response = await t.app.inject({ url: '/metrics' });
      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(response.body).not.toContain('drive_');
    });

    it('answers 403 to a wrong token', async () => {
      const response = await t.app.inject({ url: '/metrics', headers: { authorization: 'Bearer scrape-token-0123456789abcdeX' } });
      expect(response.statusCode).toBe(403);
      expect(response.body).not.toContain('drive_');
    });

    it('answers the token in Prometheus text format', async () => {
      const response = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-store');
    });

    it('answers an allowed address without a token (admin setting), and no other', async () => {
      await setSettingsForTest(t.app, { 'observability.metrics_allow': ['10.20.0.0/16', '::1'] });
      expect((await t.app.inject({ url: '/metrics', remoteAddress: '10.20.3.4' })).statusCode).toBe(200);
      expect((await t.app.inject({ url: '/metrics', remoteAddress: '::ffff:10.20.3.4' })).statusCode).toBe(200);
      expect((await t.app.inject({ url: '/metrics', remoteAddress: '10.21.3.4' })).statusCode).toBe(401);
    });

    it('uses the token from the admin setting over the environment', async () => {
      await setSettingsForTest(t.app, { 'observability.metrics_token': 'another-token-from-settings' });
      expect((await t.app.inject({ url: '/metrics', headers: { authorization: 'Bearer another-token-from-settings' } })).statusCode).toBe(200);
      expect((await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).statusCode).toBe(403);
    });
  });

  describe('what it counts', () => {
    it('times requests by route pattern and status, never by URL', async () => {
      const before = await scrape();
      const route = '/api/v1/file-entries/:id';
      const labels = { method: 'GET', route, status: '401' };
      const n0 = histogramCount(before, 'drive_http_request_duration_seconds', labels);
      await t.app.inject({ url: '/api/v1/file-entries/secret-hash-1' });
      await t.app.inject({ url: '/api/v1/file-entries/secret-hash-2' });
      await t.app.inject({ url: '/no/such/page/secret-hash-3', headers: { accept: 'application/json' } });
      const response = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      const after = parseScrape(response.body);
      expect(after.families.find((f) => f.name === 'drive_http_request_duration_seconds')!.type).toBe('HISTOGRAM');
      expect(histogramCount(after, 'drive_http_request_duration_seconds', labels) - n0).toBe(2);
      expect(response.body).not.toContain('secret-hash');
    });

    it('counts 5xx answers as server errors', async () => {
      const before = valueOf(await scrape(), 'drive_server_errors_total', { kind: 'request' });
      expect((await t.app.inject({ url: '/test/boom' })).statusCode).toBe(500);
      const after = await scrape();
      expect(valueOf(after, 'drive_server_errors_total', { kind: 'request' }) - before).toBe(1);
      expect(histogramCount(after, 'drive_http_request_duration_seconds', { route: '/test/boom', status: '500' })).toBe(1);
    });

    it('counts requests in flight', async () => {
      const idle = valueOf(await scrape(), 'drive_http_requests_in_flight');
      expect(idle).toBe(1); // the scrape itself
      const held = t.app.inject({ url: '/test/held' });
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(valueOf(await scrape(), 'drive_http_requests_in_flight')).toBe(2);
      release();
      await held;
      expect(valueOf(await scrape(), 'drive_http_requests_in_flight')).toBe(1);
    });

    it('counts upload bytes by way and download bytes as sent', async () => {
      const { user, client } = await signedInUser(t.app);
      const before = await scrape();
      const content = Buffer.alloc(3000, 'a');
      const { body, headers } = multipartUpload({ parentId: '0' }, { name: 'a.txt', content });
      const uploaded = await client.request('POST', '/api/v1/file-entries', { body, headers });
      expect(uploaded.statusCode).toBe(200);
      const file = await uploadFile(t.app, user, { name: 'b.bin', content: Buffer.alloc(12_345, 7) });
      const downloaded = await client.get(`/api/v1/file-entries/download?hashes=${file.hash}`);
      expect(downloaded.statusCode).toBe(200);
      const ranged = await client.get(`/api/v1/file-entries/download?hashes=${file.hash}`, { range: 'bytes=0-99' });
      expect(ranged.statusCode).toBe(206);
      const after = await scrape();
      expect(valueOf(after, 'drive_upload_bytes_total', { via: 'multipart' }) - valueOf(before, 'drive_upload_bytes_total', { via: 'multipart' })).toBe(
        body.length,
      );
      expect(valueOf(after, 'drive_download_bytes_total') - valueOf(before, 'drive_download_bytes_total')).toBe(12_345 + 100);
    });

    it('shows tus uploads in progress', async () => {
      const { client } = await signedInUser(t.app);
      const before = valueOf(await scrape(), 'drive_uploads_in_progress', { kind: 'tus' });
      const created = await createTusUpload(client, 5000, { name: 'big.bin', parentId: '0' });
      expect(created.statusCode).toBe(201);
      expect(valueOf(await scrape(), 'drive_uploads_in_progress', { kind: 'tus' }) - before).toBe(1);
      expect(valueOf(await scrape(), 'drive_uploads_in_progress', { kind: 's3' })).toBe(0);
    });

    it('counts job tries, failures and mail deliveries', async () => {
      const jobs = servicesOf(t.app).jobs as unknown as JobQueue<JobMap>;
      const before = await scrape();
      await jobs.enqueue('probe', {});
      await jobs.enqueue('probe', { fail: true });
      await servicesOf(t.app).jobs.enqueue('mail', { to: 'someone@example.com', subject: 'Hi', text: 'Hello', html: '<p>Hello</p>' });
      await servicesOf(t.app).jobs.idle();
      const after = await scrape();
      const delta = (name: string, labels: Record<string, string>) => valueOf(after, name, labels) - valueOf(before, name, labels);
      expect(delta('drive_job_runs_total', { job: 'probe', outcome: 'ok' })).toBe(1);
      expect(delta('drive_job_runs_total', { job: 'probe', outcome: 'retry' })).toBe(2);
      expect(delta('drive_job_runs_total', { job: 'probe', outcome: 'failed' })).toBe(1);
      expect(delta('drive_server_errors_total', { kind: 'job' })).toBe(1);
      expect(delta('drive_deliveries_total', { channel: 'mail', outcome: 'sent' })).toBe(1);
      expect(
        histogramCount(after, 'drive_job_duration_seconds', { job: 'probe' }) - histogramCount(before, 'drive_job_duration_seconds', { job: 'probe' }),
      ).toBe(4);
      expect(valueOf(after, 'drive_jobs_waiting')).toBe(0);
    });

    it('shows the database pool on PostgreSQL, process memory and event-loop delay', async () => {
      const families = await scrape();
      if (DIALECT === 'postgres') {
        expect(valueOf(families, 'drive_db_pool_connections', { state: 'max' })).toBe(10);
        expect(valueOf(families, 'drive_db_pool_connections', { state: 'open' })).toBeGreaterThan(0);
      } else {
        expect(families.families.find((f) => f.name === 'drive_db_pool_connections')?.metrics ?? []).toEqual([]);
      }
      expect(valueOf(families, 'process_resident_memory_bytes')).toBeGreaterThan(10_000_000);
      expect(valueOf(families, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThan(0);
    });
  });
});

describe('metrics switched off', () => {
  it('has no /metrics route and counts nothing', async () => {
    const t = await createTestApp({ env: { METRICS_ENABLED: 'false', METRICS_TOKEN: TOKEN } });
    try {
      expect(t.app.observability.metrics).toBeNull();
      const response = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(response.statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('refuses every scraper when neither a token nor addresses are set', async () => {
    const t = await createTestApp();
    try {
      const response = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(response.statusCode).toBe(403);
    } finally {
      await t.close();
    }
  });
});
