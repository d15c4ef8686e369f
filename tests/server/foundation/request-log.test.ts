import { afterEach, describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/** Issue 15: a day of use must not write a JSON line per request at the default level. */
describe('request logging', () => {
  let t: TestApp | null = null;
  afterEach(async () => t?.close());

  const requestLines = (lines: string[]) =>
    lines.map((l) => JSON.parse(l) as { msg: string; url?: string; status?: number }).filter((l) => l.url !== undefined);

  it('writes no line per request at info', async () => {
    const lines: string[] = [];
    t = await createTestApp({ log: { level: 'info', lines } });
    const client = new TestClient(t.app);
    await client.get('/api/v1/health');
    await client.get('/api/v1/drive/file-entries');
    expect(requestLines(lines)).toEqual([]);
  });

  it('writes one line per request with its status and duration at debug', async () => {
    const lines: string[] = [];
    t = await createTestApp({ log: { level: 'debug', lines } });
    await new TestClient(t.app).get('/api/v1/drive/file-entries');
    const logged = requestLines(lines);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ msg: 'request', url: '/api/v1/drive/file-entries', status: 401 });
  });
});
