import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser } from '../support/drive-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { multipartUpload } from './support.js';

/**
 * Issue 38 §3: @fastify/multipart is registered only where a route takes a
 * multipart body (plugins/multipart.ts), so its per-request hooks no longer
 * run on every other request (a listing). A multipart body sent elsewhere is
 * an unsupported media type, not parsed and then refused by validation.
 */
describe('multipart bodies, only where a route takes them', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('refuses a multipart body on a JSON route with 415, and still takes one on the upload route', async () => {
    const { client } = await signedInUser(t.app);
    const { body, headers } = multipartUpload({ parentId: '0', name: 'Docs' }, { name: 'a.txt', content: Buffer.from('x') });
    const folder = await client.request('POST', '/api/v1/folders', { body, headers });
    expect(folder.statusCode).toBe(415);
    const upload = await client.request('POST', '/api/v1/file-entries', { body, headers });
    expect(upload.statusCode).toBe(200);
  });

  it('runs none of its hooks on a listing; the upload route keeps them', () => {
    const lines = t.app.printRoutes({ includeHooks: true, commonPrefix: false }).split('\n');
    // Fastify prints each route's hooks by name on the lines below it; @fastify/multipart's onRequest and onResponse are anonymous.
    const hooksOf = (route: RegExp, kind: string) => {
      const at = lines.findIndex((line) => route.test(line));
      expect(at).toBeGreaterThanOrEqual(0);
      return lines.slice(at + 1, at + 10).find((line) => line.includes(`(${kind})`)) ?? '';
    };
    for (const kind of ['onRequest', 'onResponse']) {
      expect(hooksOf(/ api\/v1\/drive\/file-entries \(GET/, kind)).not.toContain('anonymous()');
      expect(hooksOf(/ api\/v1\/file-entries \(POST/, kind)).toContain('anonymous()');
    }
  });
});
