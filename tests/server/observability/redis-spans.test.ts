import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOtlpReceiver, type OtlpReceiver } from '../../peers/otlp-receiver.js';
import { dropPrefix, randomPrefix, REDIS_URL, redisReachable, redisSkipMessage } from '../scale-out/redis-support.js';
import { TestClient } from '../support/client.js';
import { createUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

const reachable = await redisReachable();
if (!reachable) console.warn(redisSkipMessage);

const CLIENT = 3;

/** Issue 33 §2: with REDIS_URL, a request's Redis commands are spans of its trace, named by the command alone. */
describe.skipIf(!reachable)('Redis commands in traces', () => {
  let otlp: OtlpReceiver;
  let t: TestApp;
  const prefix = randomPrefix();
  beforeAll(async () => {
    otlp = await startOtlpReceiver();
    t = await createTestApp({ env: { REDIS_URL, REDIS_PREFIX: prefix, OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint } });
  });
  afterAll(async () => {
    await t?.close();
    await otlp?.close();
    await dropPrefix(prefix);
  });

  it("puts a sign-in's rate-limit commands under its request span, without their keys or values", async () => {
    const user = await createUser(servicesOf(t.app).db.kysely);
    const response = await new TestClient(t.app).request('POST', '/auth/login', {
      body: { email: user.email, password: 'wrong password' },
      headers: { 'x-request-id': 'redis-trace-0001' },
    });
    expect(response.statusCode).toBe(422);
    await t.app.observability.tracing.flush();
    const request = await otlp.waitForSpan((s) => s.attributes['drive.request_id'] === 'redis-trace-0001');
    const inTrace = otlp.spans().filter((s) => s.traceId === request.traceId);
    const commands = inTrace.filter((s) => s.attributes['db.system.name'] === 'redis');
    expect(commands.length).toBeGreaterThan(0);
    for (const command of commands) {
      expect(command.kind).toBe(CLIENT);
      expect(command.name).toMatch(/^[A-Z]+$/);
      expect(inTrace.some((s) => s.spanId === command.parentSpanId)).toBe(true);
    }
    const raw = JSON.stringify(commands);
    expect(raw).not.toContain(user.email);
    expect(raw).not.toContain(prefix);
  });

  it('makes no span for commands outside a request or a job', async () => {
    await t.app.observability.tracing.flush();
    const before = otlp.count();
    await servicesOf(t.app).shared.redis!.ping();
    await t.app.observability.tracing.flush();
    expect(otlp.count()).toBe(before);
  });
});
