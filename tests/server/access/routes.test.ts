import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntryAction } from '../../../server/modules/access/actions.js';
import { TestClient } from '../support/client.js';
import { createFolder, pngBytes, signedInUser, uploadFile } from '../support/drive-factories.js';
import { withoutPermissions, type CreatedUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { json, routes, tusCreate, type Call, type Fixture } from './route-table.js';

/**
 * Every drive and upload route against the four callers the policy tells
 * apart (immich's "should require authentication" block, as a table):
 * a guest (401), a stranger who holds no grant (404), the owner whose site
 * role lacks the route's action (403), and the owner (2xx).
 */
describe('access to every drive and upload route', () => {
  let t: TestApp;
  let stranger: TestClient;
  const restricted = new Map<EntryAction, { client: TestClient; fx: Fixture }>();

  async function fixture(user: CreatedUser, client: TestClient): Promise<Fixture> {
    const folder = await createFolder(client, 'Folder');
    const other = await createFolder(client, 'Other');
    const file = (await uploadFile(t.app, user, { name: 'a.txt', content: 'hello', parentId: folder })).hash;
    const image = (await uploadFile(t.app, user, { name: 'i.png', content: await pngBytes(40, 30), parentId: folder })).hash;
    const trashed = (await uploadFile(t.app, user, { name: 't.txt', parentId: folder })).hash;
    await client.post('/api/v1/file-entries/delete', { entryIds: [trashed] });
    return { folder, other, file, image, trashed };
  }

  const send = (client: TestClient, call: Call) => client.request(call.method, call.url, { body: call.body, headers: call.headers });

  beforeAll(async () => {
    t = await createTestApp();
    stranger = (await signedInUser(t.app)).client;
    for (const action of new Set(routes.map((r) => r.action))) {
      const { user, client } = await signedInUser(t.app);
      const fx = await fixture(user, client);
      await withoutPermissions(t.app.services.db.kysely, user.id, [action]);
      restricted.set(action, { client, fx });
    }
  }, 60_000);
  afterAll(() => t.close());

  describe.each(routes)('$name ($action)', ({ action, call, ok }) => {
    it('a guest gets 401, a stranger 404, an owner without the action 403, the owner success', async () => {
      const { user, client } = await signedInUser(t.app);
      const fx = await fixture(user, client);
      expect((await send(new TestClient(t.app), call(fx))).statusCode).toBe(401);
      expect((await send(stranger, call(fx))).statusCode).toBe(404);
      const own = restricted.get(action)!;
      expect((await send(own.client, call(own.fx))).statusCode).toBe(403);
      const res = await send(client, call(fx));
      expect(res.statusCode, res.body).toBe(ok ?? 200);
    });
  });

  it('routes without an entry: a guest gets 401, an unknown or foreign workspace 404', async () => {
    const { client } = await signedInUser(t.app);
    const guest = new TestClient(t.app);
    for (const url of ['/api/v1/drive/file-entries', '/api/v1/drive/folders', '/api/v1/user/space-usage']) {
      expect((await guest.get(url)).statusCode, url).toBe(401);
      expect((await client.get(url)).statusCode, url).toBe(200);
    }
    for (const call of [
      json('GET', '/api/v1/drive/file-entries?workspaceId=999'),
      json('GET', '/api/v1/drive/folders?workspaceId=999'),
      json('POST', '/api/v1/folders?workspaceId=999', { name: 'Sneaky' }),
      json('POST', '/api/v1/file-entries/delete?workspaceId=999', { emptyTrash: true }),
    ]) {
      const res = await send(client, call);
      expect(res.statusCode, call.url).toBe(404);
      expect(res.json().message).toBe('This workspace does not exist.');
    }
    expect((await client.get('/api/v1/drive/file-entries?workspaceId=0')).statusCode).toBe(200);
  });

  it("an upload in flight is its uploader's alone", async () => {
    const { user, client } = await signedInUser(t.app);
    const fx = await fixture(user, client);
    const location = (await send(client, tusCreate(fx))).headers.location as string;
    const key = location.split('/').pop()!;
    const head = { headers: { 'tus-resumable': '1.0.0' } };
    expect((await new TestClient(t.app).request('HEAD', location, head)).statusCode).toBe(401);
    expect((await stranger.request('HEAD', location, head)).statusCode).toBe(404);
    expect((await stranger.request('DELETE', location, head)).statusCode).toBe(404);
    expect((await stranger.post('/api/v1/tus/entries', { uploadKey: key })).statusCode).toBe(404);
    expect((await client.request('HEAD', location, head)).statusCode).toBe(200);
  });
});
