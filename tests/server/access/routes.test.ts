import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntryAction } from '../../../server/modules/access/actions.js';
import { TestClient } from '../support/client.js';
import { createFolder, pngBytes, signedInUser, uploadFile } from '../support/drive-factories.js';
import { withoutPermissions, type CreatedUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import {
  DRIVE_PREFIXES,
  json,
  makeVersion,
  PUBLIC_ROUTES,
  registeredRoutes,
  routeOf,
  routes,
  testedElsewhere,
  tusCreate,
  type Call,
  type Fixture,
  type Method,
} from './route-table.js';
import { servicesOf } from '../support/services-handle.js';

/**
 * Every drive and upload route against the four callers the policy tells
 * apart (immich's "should require authentication" block, as a table):
 * a guest (401), a stranger who holds no grant (404), the owner whose site
 * role lacks the route's action (403), and the owner (2xx).
 */
describe('access to every drive and upload route', () => {
  let t: TestApp;
  let stranger: TestClient;
  let bystander: string;
  const restricted = new Map<EntryAction, { client: TestClient; fx: Fixture }>();

  async function fixture(user: CreatedUser, client: TestClient): Promise<Fixture> {
    const folder = await createFolder(client, 'Folder');
    const other = await createFolder(client, 'Other');
    const file = (await uploadFile(t.app, user, { name: 'a.txt', content: 'hello', parentId: folder })).hash;
    const image = (await uploadFile(t.app, user, { name: 'i.png', content: await pngBytes(40, 30), parentId: folder })).hash;
    const trashed = (await uploadFile(t.app, user, { name: 't.txt', parentId: folder })).hash;
    await client.post('/api/v1/file-entries/delete', { entryIds: [trashed] });
    const version = await makeVersion((call) => send(client, call), folder, file);
    return { folder, other, file, image, trashed, version, recipient: bystander };
  }

  const send = (client: TestClient, call: Call) => client.request(call.method, call.url, { body: call.body, headers: call.headers });

  beforeAll(async () => {
    t = await createTestApp();
    stranger = (await signedInUser(t.app)).client;
    bystander = (await signedInUser(t.app)).user.email;
    for (const action of new Set(routes.map((r) => r.action))) {
      const { user, client } = await signedInUser(t.app);
      const fx = await fixture(user, client);
      await withoutPermissions(servicesOf(t.app).db.kysely, user.id, [action]);
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
    const patch = { headers: { ...head.headers, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, body: Buffer.from('hello') };
    const guest = new TestClient(t.app);
    expect((await guest.request('HEAD', location, head)).statusCode).toBe(401);
    expect((await guest.request('PATCH', location, patch)).statusCode).toBe(401);
    expect((await guest.request('DELETE', location, head)).statusCode).toBe(401);
    expect((await guest.post('/api/v1/tus/entries', { uploadKey: key })).statusCode).toBe(401);
    expect((await stranger.request('HEAD', location, head)).statusCode).toBe(404);
    expect((await stranger.request('PATCH', location, patch)).statusCode).toBe(404);
    expect((await stranger.request('DELETE', location, head)).statusCode).toBe(404);
    expect((await stranger.post('/api/v1/tus/entries', { uploadKey: key })).statusCode).toBe(404);
    expect((await client.request('HEAD', location, head)).headers['upload-offset']).toBe('0');
    expect((await client.request('PATCH', location, patch)).statusCode).toBe(204);
    const finished = await client.post('/api/v1/tus/entries', { uploadKey: key });
    expect(finished.statusCode, finished.body).toBe(200);
    expect(finished.json().fileEntry.name).toBe('r.txt');
  });

  it('changing and removing a share: a guest gets 401, a stranger 404, a viewer 403, the owner success', async () => {
    const { user, client } = await signedInUser(t.app);
    const fx = await fixture(user, client);
    const viewer = await signedInUser(t.app);
    const shared = await client.post('/api/v1/file-entries/shares', { entryIds: [fx.folder], emails: [viewer.user.email], permission: 'view' });
    const shareId = (shared.json().shares as { id: number }[])[0]!.id;
    const change = json('PUT', `/api/v1/file-entries/shares/${shareId}`, { permission: 'edit' });
    const remove = json('DELETE', `/api/v1/file-entries/shares/${shareId}`);
    for (const call of [change, remove]) {
      expect((await send(new TestClient(t.app), call)).statusCode, call.method).toBe(401);
      expect((await send(stranger, call)).statusCode, call.method).toBe(404);
    }
    expect((await send(viewer.client, change)).statusCode).toBe(403);
    expect((await send(client, change)).json().shares).toMatchObject([{ id: shareId, permission: 'edit' }]);
    expect((await send(client, remove)).statusCode).toBe(200);
    expect((await client.get(`/api/v1/file-entries/${fx.folder}/shares`)).json().shares).toEqual([]);
  });

  it('every registered drive and upload route is in the table, or named with the test that covers it', () => {
    const registered = registeredRoutes(t.app);
    const placeholder: Fixture = { folder: 'F', other: 'O', file: 'A', image: 'I', trashed: 'T', version: 1, recipient: 'r@example.com' };
    const inTable = routes.map((route) => {
      const reached = routeOf(registered, route.call(placeholder));
      expect(reached, route.name).toBeDefined();
      return reached!;
    });
    const drive = registered.filter((route) => DRIVE_PREFIXES.some((prefix) => route.split(' ')[1]!.startsWith(prefix)));
    // OPTIONS is tus's protocol discovery: it answers anyone, and says nothing about an upload.
    const untested = drive.filter((route) => !route.startsWith('OPTIONS ') && !inTable.includes(route) && !(route in testedElsewhere));
    expect(untested, 'add these to route-table.ts').toEqual([]);
    expect(Object.keys(testedElsewhere).filter((route) => !registered.includes(route))).toEqual([]);
    expect(Object.keys(testedElsewhere).filter((route) => inTable.includes(route))).toEqual([]);
  });

  it('every other route outside the admin area and the public list turns a guest away with 401', async () => {
    const guest = new TestClient(t.app);
    const checked = registeredRoutes(t.app).filter((route) => {
      const path = route.split(' ')[1]!;
      return !path.startsWith('/api/v1/admin/') && !DRIVE_PREFIXES.some((prefix) => path.startsWith(prefix)) && !(route in PUBLIC_ROUTES);
    });
    const answers: Record<string, number> = {};
    for (const route of checked) {
      const [method, path] = route.split(' ') as [Method, string];
      answers[route] = (await guest.request(method, path.replace(/:/g, '1').replace(/\*$/, '/x'), { body: method === 'GET' ? undefined : {} })).statusCode;
    }
    const notRefused = Object.entries(answers).filter(([, status]) => status !== 401);
    expect(notRefused, 'a route open to guests belongs in PUBLIC_ROUTES, with why').toEqual([]);
    expect(Object.keys(PUBLIC_ROUTES).filter((route) => !registeredRoutes(t.app).includes(route))).toEqual([]);
  });
});
