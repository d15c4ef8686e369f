import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOtlpReceiver, type OtlpReceiver } from '../../peers/otlp-receiver.js';
import { signedInUser } from '../support/drive-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { multipartUpload } from '../uploads/support.js';

const CLIENT = 3;

/** Issue 33 §2: on S3, the bucket's calls are spans of the request that made them (the disk is the traced proxy). */
describe('S3 calls in traces', () => {
  let otlp: OtlpReceiver;
  let t: TestApp;
  beforeAll(async () => {
    otlp = await startOtlpReceiver();
    t = await createTestApp({ disk: 's3', env: { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint } });
  });
  afterAll(async () => {
    await t?.close();
    await otlp?.close();
  });

  it("puts an upload's write to the bucket and a download's read under their requests, without the file's name", async () => {
    const { client } = await signedInUser(t.app);
    const { body, headers } = multipartUpload({ parentId: '0' }, { name: 'to-bucket.txt', content: Buffer.from('bytes for the bucket') });
    const uploaded = await client.request('POST', '/api/v1/file-entries', { body, headers: { ...headers, 'x-request-id': 's3-trace-put' } });
    expect(uploaded.statusCode).toBe(200);
    const entry = uploaded.json().fileEntry as { hash: string };
    const downloaded = await client.request('GET', `/api/v1/file-entries/download?hashes=${entry.hash}`, { headers: { 'x-request-id': 's3-trace-get' } });
    expect(downloaded.body).toBe('bytes for the bucket');
    await t.app.observability.tracing.flush();

    for (const [requestId, operation] of [
      ['s3-trace-put', 'put'],
      ['s3-trace-get', 'get'],
    ] as const) {
      const request = await otlp.waitForSpan((s) => s.attributes['drive.request_id'] === requestId);
      const call = otlp.spans().find((s) => s.traceId === request.traceId && s.name === `storage ${operation}`);
      expect(call, operation).toBeDefined();
      expect(call!.kind).toBe(CLIENT);
      expect(call!.attributes).toMatchObject({ 'drive.storage.driver': 's3', 'drive.storage.operation': operation });
    }
    expect(JSON.stringify(otlp.spans())).not.toContain('to-bucket.txt');
  });
});
