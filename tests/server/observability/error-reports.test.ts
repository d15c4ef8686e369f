import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobMap, JobQueue } from '../../../server/lib/background.js';
import { startSentryReceiver, type SentryEvent, type SentryReceiver } from '../../peers/sentry-receiver.js';
import { signedInUser } from '../support/drive-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

const SECRET_EMAIL = 'alice.secret@example.com';
const LINK_ID = 'Zx81kQp2LmN0aB7c';

const crumbsOf = (event: SentryEvent) => (Array.isArray(event.breadcrumbs) ? event.breadcrumbs : (event.breadcrumbs?.values ?? []));

/** Issue 33 §1: server and job errors reach a Sentry-compatible receiver through @sentry/node's own transport, scrubbed. */
describe('error reports (server and jobs)', () => {
  let receiver: SentryReceiver;
  let t: TestApp;
  beforeAll(async () => {
    receiver = await startSentryReceiver();
    t = await createTestApp({
      env: { SENTRY_DSN: receiver.dsn, SENTRY_ENVIRONMENT: 'test-env', SENTRY_RELEASE: 'drive@9.9.9' },
      beforeReady: (app: FastifyInstance) => {
        app.get('/api/v1/test/fail/:linkId', async (request) => {
          throw new Error(`could not open report-${(request.params as { linkId: string }).linkId}.pdf for ${SECRET_EMAIL} with Bearer abc.def.ghi`);
        });
        app.get('/api/v1/test/not-found', async (_request, reply) => reply.code(404).send({ message: 'nope' }));
        (servicesOf(app).jobs as unknown as JobQueue<JobMap>).define(
          'explode',
          async () => {
            throw new Error(`mail to ${SECRET_EMAIL} failed`);
          },
          { attempts: 2 },
        );
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('reports a 5xx with release, environment, route, user id and the request breadcrumb, scrubbed', async () => {
    const { user, client } = await signedInUser(t.app);
    const response = await client.get(`/api/v1/test/fail/${LINK_ID}?token=${LINK_ID}`, { 'x-request-id': 'report-me-0001' });
    expect(response.statusCode).toBe(500);
    await t.app.observability.errors.flush();
    const event = await receiver.waitForEvent((e) => e.tags?.request_id === 'report-me-0001');
    const envelope = receiver.envelopes.find((e) => e.items.some((i) => i.payload === (event as unknown)))!;
    expect(envelope.path).toBe('/api/42/envelope/');
    expect(envelope.query.get('sentry_key')).toBe('publickey');

    expect(event.release).toBe('drive@9.9.9');
    expect(event.environment).toBe('test-env');
    expect(event.transaction).toBe('GET /api/v1/test/fail/:linkId');
    expect(event.tags?.route).toBe('/api/v1/test/fail/:linkId');
    expect(event.user).toEqual({ id: String(user.id) });
    expect(event.exception?.values?.[0]?.value).toBe('could not open [file] for [email] with Bearer [token]');
    expect(crumbsOf(event).map((c) => c.message)).toContain('GET /api/v1/test/fail/:linkId');

    const raw = JSON.stringify(event);
    for (const secret of [SECRET_EMAIL, LINK_ID, user.email, 'abc.def.ghi', 'drive_session', 'XSRF', 'cookie']) expect(raw).not.toContain(secret);
  });

  it("carries its own request's breadcrumb only, not an earlier request's or the process's", async () => {
    const { client } = await signedInUser(t.app);
    console.warn('a line of the process, not of a request');
    await client.get('/api/v1/test/fail/first', { 'x-request-id': 'report-first-01' });
    await client.get('/api/v1/test/fail/second', { 'x-request-id': 'report-second-01' });
    await t.app.observability.errors.flush();
    const second = await receiver.waitForEvent((e) => e.tags?.request_id === 'report-second-01');
    expect(crumbsOf(second).map((c) => c.message)).toEqual(['GET /api/v1/test/fail/:linkId']);
  });

  it('does not report client errors', async () => {
    const before = receiver.events().length;
    expect((await t.app.inject({ url: '/api/v1/test/not-found' })).statusCode).toBe(404);
    await t.app.observability.errors.flush();
    expect(receiver.events().length).toBe(before);
  });

  it('reports a job once it is out of tries, with its name and never its data', async () => {
    const jobs = servicesOf(t.app).jobs as unknown as JobQueue<JobMap>;
    await jobs.enqueue('explode', { to: SECRET_EMAIL });
    await servicesOf(t.app).jobs.idle();
    await t.app.observability.errors.flush();
    const event = await receiver.waitForEvent((e) => e.tags?.job === 'explode');
    expect(receiver.events().filter((e) => e.tags?.job === 'explode')).toHaveLength(1);
    expect(event.transaction).toBe('job explode');
    expect(event.exception?.values?.[0]?.value).toBe('mail to [email] failed');
    expect(crumbsOf(event).map((c) => c.message)).toEqual(expect.arrayContaining(['explode try 2 of 2']));
    expect(JSON.stringify(event)).not.toContain(SECRET_EMAIL);
  });
});

describe('the browser side: settings and tunnel', () => {
  let receiver: SentryReceiver;
  let t: TestApp;
  beforeAll(async () => {
    receiver = await startSentryReceiver();
    t = await createTestApp({ env: { SENTRY_DSN: receiver.dsn, SENTRY_RELEASE: 'drive@1.2.3', SENTRY_SAMPLE_RATE: '0.5' } });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  const envelope = (dsn: string, message: string) =>
    [JSON.stringify({ event_id: 'a'.repeat(32), dsn, sent_at: new Date().toISOString() }), JSON.stringify({ type: 'event' }), JSON.stringify({ message })].join(
      '\n',
    );

  it("gives guests the DSN, release, sample rates and this site's tunnel", async () => {
    const response = await t.app.inject({ url: '/api/v1/observability/client' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      dsn: receiver.dsn,
      tunnel: '/api/v1/observability/envelope',
      release: 'drive@1.2.3',
      environment: 'test',
      sampleRate: 0.5,
      tracesSampleRate: 1,
      tracing: false,
    });
  });

  it('forwards an envelope for the configured DSN to it, without an XSRF token', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/observability/envelope',
      payload: envelope(receiver.dsn, 'from the page'),
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
    });
    expect(response.statusCode).toBe(200);
    expect((await receiver.waitForEvent((e) => e.message === 'from the page')).message).toBe('from the page');
  });

  it('refuses an envelope for another DSN (no open relay)', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/observability/envelope',
      payload: envelope('http://otherkey@127.0.0.1:1/7', 'elsewhere'),
      headers: { 'content-type': 'text/plain' },
    });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(receiver.events().some((e) => e.message === 'elsewhere')).toBe(false);
  });

  it('answers 404 on the tunnel when reporting is off', async () => {
    const off = await createTestApp();
    try {
      const response = await off.app.inject({
        method: 'POST',
        url: '/api/v1/observability/envelope',
        payload: envelope(receiver.dsn, 'x'),
        headers: { 'content-type': 'text/plain' },
      });
      expect(response.statusCode).toBe(404);
      expect((await off.app.inject({ url: '/api/v1/observability/client' })).json()).toMatchObject({ dsn: null });
    } finally {
      await off.close();
    }
  });
});

describe('error reports without a DSN', () => {
  it('sends nothing and installs nothing that reports', async () => {
    const receiver = await startSentryReceiver();
    const t = await createTestApp({
      beforeReady: (app: FastifyInstance) => {
        app.get('/api/v1/test/fail', async () => {
          throw new Error('boom');
        });
      },
    });
    try {
      expect(t.app.observability.errors.enabled).toBe(false);
      expect((await t.app.inject({ url: '/api/v1/test/fail' })).statusCode).toBe(500);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(receiver.envelopes).toEqual([]);
    } finally {
      await t.close();
      await receiver.close();
    }
  });
});
