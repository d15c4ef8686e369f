import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolder, signedInUser, uploadFile } from '../support/drive-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

/** What a warm, authenticated listing costs in statements: the budget the issue sets. */
describe('statements per listing', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const statements = async (call: () => Promise<{ statusCode: number; body: string }>) => {
    // Only the request's own statements: background work earlier uploads queued (text extraction) is done first.
    await servicesOf(t.app).jobs.idle();
    const before = servicesOf(t.app).db.counter.statements;
    const res = await call();
    expect(res.statusCode, res.body).toBe(200);
    return servicesOf(t.app).db.counter.statements - before;
  };

  it('a folder page and a root page, signed in, warm', async () => {
    const { user, client } = await signedInUser(t.app);
    const folder = await createFolder(client, 'Big');
    for (let i = 0; i < 3; i += 1) await uploadFile(t.app, user, { name: `file ${i}.txt`, parentId: folder });
    await uploadFile(t.app, user, { name: 'at root.txt' });
    await client.get(`/api/v1/drive/file-entries?folderId=${folder}&perPage=50`);
    const inFolder = await statements(() => client.get(`/api/v1/drive/file-entries?folderId=${folder}&perPage=50`));
    const atRoot = await statements(() => client.get('/api/v1/drive/file-entries?folderId=0&perPage=50'));
    const search = await statements(() => client.get('/api/v1/drive/file-entries?query=file&perPage=50'));
    expect(inFolder).toBeLessThanOrEqual(2);
    expect(atRoot).toBeLessThanOrEqual(2);
    expect(search).toBeLessThanOrEqual(2);
  });
});
