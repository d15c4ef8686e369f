import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { RouteHistogram } from '../../../server/observability/route-histogram.js';

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const config = (registry: Registry) => ({
  name: 'drive_http_request_duration_seconds',
  help: 'Time to answer a request.',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: BUCKETS,
  registers: [registry],
});

/** The request-duration histogram reads cheaper on a request's path; Prometheus and the Health page must not see a difference. */
describe('RouteHistogram', () => {
  // On bounds, between them, under the first, over the last, zero; three series, one twice as common.
  const observations: [string, string, string, number][] = [
    ['GET', '/api/v1/drive/file-entries', '200', 0.0031],
    ['GET', '/api/v1/drive/file-entries', '200', 0.005],
    ['GET', '/api/v1/drive/file-entries', '200', 0.0101],
    ['POST', '/api/v1/file-entries', '201', 0.25],
    ['GET', '/api/v1/drive/file-entries', '304', 0],
    ['POST', '/api/v1/file-entries', '201', 31.5],
    ['GET', '/api/v1/drive/file-entries', '200', 2.4999],
    ['POST', '/api/v1/file-entries', '500', 10],
  ];

  const both = () => {
    const ours = new Registry();
    const theirs = new Registry();
    return { ours, theirs, route: new RouteHistogram(config(ours)), plain: new Histogram(config(theirs)) };
  };

  it('writes the same exposition and get() as prom-client for the same observations', async () => {
    const { ours, theirs, route, plain } = both();
    for (const [method, path, status, seconds] of observations) {
      route.observeRoute(method, path, status, seconds);
      plain.observe({ method, route: path, status }, seconds);
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
    expect(await route.get()).toEqual(await plain.get());
    expect(await ours.metrics()).toContain('drive_http_request_duration_seconds_bucket{le="+Inf",method="POST",route="/api/v1/file-entries",status="201"} 2');
  });

  it("takes prom-client's labelled observe, zero and reset alike", async () => {
    const { ours, theirs, route, plain } = both();
    route.zero({ method: 'GET', route: '/a', status: '200' });
    plain.zero({ method: 'GET', route: '/a', status: '200' });
    route.observe({ method: 'GET', route: '/b', status: '404' }, 0.02);
    plain.observe({ method: 'GET', route: '/b', status: '404' }, 0.02);
    expect(await ours.metrics()).toBe(await theirs.metrics());
    route.reset();
    plain.reset();
    expect(await ours.metrics()).toBe(await theirs.metrics());
    expect(() => route.observeRoute('GET', '/a', '200', Number.NaN)).toThrow(TypeError);
  });
});
