import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.js';
import { createFolder, signedInUser, uploadFile } from '../support/drive-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

describe('listing revalidation (ETag / If-None-Match)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers 304 without reading the page while nothing changed, and 200 with a new tag after any write', async () => {
    const { user, client } = await signedInUser(t.app);
    const folder = await createFolder(client, 'Tagged');
    await uploadFile(t.app, user, { name: 'one.txt', parentId: folder });
    // The upload's background work (text extraction) writes too, and any write changes the tag: it is done first.
    await servicesOf(t.app).jobs.idle();
    const url = `/api/v1/drive/file-entries?folderId=${folder}&perPage=50`;
    const first = await client.get(url);
    expect(first.statusCode).toBe(200);
    const tag = first.headers.etag as string;
    expect(tag).toMatch(/^W\/".+"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');

    const before = servicesOf(t.app).db.counter.statements;
    const again = await client.request('GET', url, { headers: { 'if-none-match': tag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(servicesOf(t.app).db.counter.statements - before).toBe(0);

    await uploadFile(t.app, user, { name: 'two.txt', parentId: folder });
    const changed = await client.request('GET', url, { headers: { 'if-none-match': tag } });
    expect(changed.statusCode).toBe(200);
    expect(
      changed
        .json()
        .pagination.data.map((e: { name: string }) => e.name)
        .sort(),
    ).toEqual(['one.txt', 'two.txt']);
    expect(changed.headers.etag).not.toBe(tag);

    // Another query or another caller never matches this one's tag.
    const other = await client.request('GET', `${url}&orderBy=name`, { headers: { 'if-none-match': changed.headers.etag as string } });
    expect(other.statusCode).toBe(200);
    const { client: stranger } = await signedInUser(t.app);
    const theirs = await stranger.request('GET', url, { headers: { 'if-none-match': changed.headers.etag as string } });
    expect(theirs.statusCode).not.toBe(304);
  });

  it('a revoked permission is not hidden behind a 304', async () => {
    const { client: admin } = await signedInUser(t.app, { roles: ['admin'] });
    const { user, client } = await signedInUser(t.app);
    const url = '/api/v1/drive/file-entries?folderId=0&perPage=50';
    const first = await client.get(url);
    expect(first.statusCode).toBe(200);
    const users = await servicesOf(t.app).db.kysely.selectFrom('roles').select('id').where('name', '=', 'users').executeTakeFirstOrThrow();
    const res = await admin.request('PUT', `/api/v1/admin/users/${user.id}`, { body: { roles: [users.id], permissions: [] } });
    expect(res.statusCode, res.body).toBe(200);
    const after = await client.request('GET', url, { headers: { 'if-none-match': first.headers.etag as string } });
    expect(after.statusCode).not.toBe(304);
  });

  it('a guest gets no listing and no tag', async () => {
    const res = await new TestClient(t.app).get('/api/v1/drive/file-entries?folderId=0');
    expect(res.statusCode).toBe(401);
    expect(res.headers.etag).toBeUndefined();
  });
});
