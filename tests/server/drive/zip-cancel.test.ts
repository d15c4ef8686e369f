import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolder, listNames, signedInUser, uploadFile } from '../support/drive-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/** Over a real socket: a zip download the browser abandons half-way must cost nothing but the bytes sent. */
describe('a zip download cancelled midway', () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await createTestApp();
    url = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(() => t.close());

  it('loses nothing and the next download is whole', async () => {
    const { user, client } = await signedInUser(t.app);
    const folder = await createFolder(client, 'Archive');
    // Random bytes: a zip cannot shrink them, so the archive is as big as its files.
    const big = randomBytes(8 * 1024 * 1024);
    for (const name of ['one.bin', 'two.bin', 'three.bin']) await uploadFile(t.app, user, { name, content: big, parentId: folder });
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const downloadUrl = `${url}/api/v1/file-entries/download?hashes=${folder}`;

    const controller = new AbortController();
    const response = await fetch(downloadUrl, { headers: { cookie }, signal: controller.signal });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    let received = 0;
    while (received < 1024 * 1024) {
      const { value, done } = await reader.read();
      if (done) break;
      received += value.length;
    }
    controller.abort();
    await reader.cancel().catch(() => undefined);

    expect((await listNames(client, `folderId=${folder}&orderBy=name&orderDir=asc`)).sort()).toEqual(['one.bin', 'three.bin', 'two.bin']);
    const again = await fetch(downloadUrl, { headers: { cookie } });
    const zip = Buffer.from(await again.arrayBuffer());
    expect(zip.subarray(0, 4).toString('hex')).toBe('504b0304');
    expect(zip.length).toBeGreaterThan(3 * big.length);
    // The server still answers: the aborted stream released its files.
    expect((await fetch(`${url}/api/v1/health`)).status).toBe(200);
  });
});
