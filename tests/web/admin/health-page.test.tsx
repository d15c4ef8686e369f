import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HealthPage } from '../../../src/features/admin/HealthPage';
import { renderAdmin } from './render-admin';

const minute = (i: number) => new Date(Date.UTC(2026, 10, 27, 9, i)).toISOString();

const report = (overrides: Record<string, unknown> = {}) => ({
  generated_at: minute(59),
  uptime_seconds: 2 * 86_400 + 3 * 3600 + 4 * 60 + 5,
  started_at: minute(0),
  versions: { app: '0.1.0', node: 'v20.20.2', database: 'PostgreSQL 15.20' },
  database: { status: 'ok', ms: 2, dialect: 'postgres' },
  storage: { status: 'error', ms: 5000, driver: 's3' },
  metrics: true,
  error_reporting: true,
  tracing: false,
  errors: {
    last_hour: { request: 3, job: 1 },
    per_minute: Array.from({ length: 60 }, (_, i) => ({ minute: minute(i), request: i === 58 ? 3 : 0, job: i === 59 ? 1 : 0 })),
  },
  slowest_routes: [{ method: 'GET', route: '/api/v1/drive/file-entries/:entryId/versions/:versionId/download', count: 12, average_ms: 840.5 }],
  jobs: { waiting: 7, runs: [{ job: 'mail', ok: 10, retry: 2, failed: 1 }] },
  deliveries: [
    { channel: 'mail', sent: 10, failed: 1 },
    { channel: 'push', sent: 4, failed: 0 },
  ],
  ...overrides,
});

describe('Admin → Health', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the last hour’s errors, jobs, reachability, slowest routes, deliveries and versions', async () => {
    const { sent } = renderAdmin(<HealthPage />, (call) => (call.path === '/api/v1/admin/health' ? Response.json(report()) : undefined));
    expect(await screen.findByRole('heading', { name: 'Health' })).toBeTruthy();
    expect(sent('GET', '/api/v1/admin/health')).toHaveLength(1);
    expect(screen.getByText('Up 2 d 3 h 4 min')).toBeTruthy();

    const card = (label: string) => screen.getByText(label, { selector: 'p' }).parentElement!;
    expect(within(card('Errors in the last hour')).getByText('4')).toBeTruthy();
    expect(within(card('Errors in the last hour')).getByText('3 requests, 1 jobs')).toBeTruthy();
    expect(within(card('Jobs waiting')).getByText('7')).toBeTruthy();
    expect(within(card('Failed jobs')).getByText('1')).toBeTruthy();
    expect(within(card('Storage')).getByText('Unreachable')).toBeTruthy();
    expect(card('Storage').className).toContain('border-danger');
    expect(within(card('Database')).getByText('Reachable')).toBeTruthy();

    expect(screen.getByRole('heading', { name: 'Errors per minute, last hour' })).toBeTruthy();
    expect(screen.getByText('GET /api/v1/drive/file-entries/:entryId/versions/:versionId/download')).toBeTruthy();
    expect(screen.getByText('840.5 ms (12)')).toBeTruthy();
    expect(screen.getByText('10 sent, 1 failed')).toBeTruthy();
    expect(screen.getByText('PostgreSQL 15.20')).toBeTruthy();
    expect(screen.getByText('v20.20.2')).toBeTruthy();
  });

  it('says the counts are off instead of showing zeros when metrics are disabled', async () => {
    renderAdmin(<HealthPage />, (call) =>
      call.path === '/api/v1/admin/health'
        ? Response.json(report({ metrics: false, errors: null, slowest_routes: null, jobs: { waiting: 0, runs: null }, deliveries: null }))
        : undefined,
    );
    expect(await screen.findByText(/Metrics are off/)).toBeTruthy();
    expect(within(screen.getByText('Errors in the last hour', { selector: 'p' }).parentElement!).getByText('—')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Slowest routes' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Errors per minute, last hour' })).toBeNull();
  });
});
