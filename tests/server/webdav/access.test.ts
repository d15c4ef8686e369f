import type { FastifyInstance } from 'fastify';
import type { JobMap, JobQueue } from '../../../server/lib/background.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TestClient } from '../support/client.js';
import { createTestApp, DIALECT, type TestApp } from '../support/test-app.js';
import { createFolder, listNames, signedInUser, uploadFile } from '../support/drive-factories.js';
import { addMember, createWorkspace, workspaceRoles } from '../workspaces/support.js';
import { servicesOf } from '../support/services-handle.js';

type Headers = Record<string, string>;

const basic = (token: string, name = 'someone'): Headers => ({ authorization: `Basic ${Buffer.from(`${name}:${token}`).toString('base64')}` });

function dav(app: FastifyInstance, method: string, url: string, headers: Headers, body?: string | Buffer, remoteAddress?: string) {
  return app.inject({ method: method as 'GET', url, headers, ...(body !== undefined ? { payload: body } : {}), ...(remoteAddress ? { remoteAddress } : {}) });
}

async function tokenFor(app: FastifyInstance, userId: number, scopes: ('read' | 'write')[] = ['read', 'write']) {
  return (await servicesOf(app).auth.accessTokens.create(userId, 'webdav', null, scopes)).token;
}

/**
 * WebDAV through the REST API's rules: the access policy (another user's
 * paths are 404, a workspace viewer cannot write), token scopes, quota and
 * upload restrictions on PUT, odd paths, and the app seeing WebDAV's changes.
 */
describe('WebDAV access, limits and paths', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    // The statement budgets below count a request's own statements: the text extraction each new file queues
    // (content search) runs in this process as the answer goes out, so here it does nothing.
    (servicesOf(t.app).jobs as unknown as JobQueue<JobMap>).define('extract-text', async () => undefined, { attempts: 1, concurrency: 1 });
  });
  afterAll(() => t.close());

  it('needs a personal access token: no credentials, the account password and the session cookie all get 401', async () => {
    const { user } = await signedInUser(t.app);
    expect((await dav(t.app, 'PROPFIND', '/dav/', { depth: '0' })).statusCode).toBe(401);
    expect((await dav(t.app, 'PROPFIND', '/dav/', { depth: '0', ...basic(user.password, user.email) })).statusCode).toBe(401);
    const session = await servicesOf(t.app).auth.sessions.start(user.id, { ip: '127.0.0.1', userAgent: null, remember: false });
    const withCookie = await dav(t.app, 'PROPFIND', '/dav/', { depth: '0', cookie: `drive_session=${session.token}` });
    expect(withCookie.statusCode).toBe(401);
    expect(withCookie.headers['www-authenticate']).toMatch(/^Basic/);
    const token = await tokenFor(t.app, user.id);
    const root = await dav(t.app, 'PROPFIND', '/dav/', { depth: '1', ...basic(token) });
    expect(root.statusCode).toBe(207);
    expect(root.body).toContain('/dav/My%20drive/');
    expect(root.body).toContain('/dav/Shared%20with%20me/');
  });

  it('throttles wrong tokens like the sign-in form', async () => {
    const headers = { depth: '0', ...basic('1|wrong', 'guess@example.com'), 'x-forwarded-for': '203.0.113.9' };
    const statuses: number[] = [];
    for (let i = 0; i < 7; i += 1) statuses.push((await dav(t.app, 'PROPFIND', '/dav/', headers)).statusCode);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.at(-1)).toBe(429);
  });

  it('counts each guess before its token is looked up: of 30 parallel wrong tokens only the limit (5) are compared', async () => {
    const lookups = vi.spyOn(servicesOf(t.app).auth.accessTokens, 'resolve');
    try {
      const headers = { depth: '0', ...basic('1|wrong', 'burst@example.com') };
      const answers = await Promise.all(Array.from({ length: 30 }, () => dav(t.app, 'PROPFIND', '/dav/', headers, undefined, '203.0.113.20')));
      const statuses = answers.map((answer) => answer.statusCode);
      expect(statuses.filter((status) => status === 401)).toHaveLength(5);
      expect(statuses.filter((status) => status === 429)).toHaveLength(25);
      expect(lookups).toHaveBeenCalledTimes(5);
      expect(Number(answers.find((answer) => answer.statusCode === 429)!.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      lookups.mockRestore();
    }
  });

  it('gives a right token its slot back, and never counts the parallel requests of a client whose token proved right', async () => {
    const { user } = await signedInUser(t.app);
    const token = await tokenFor(t.app, user.id);
    const address = '203.0.113.21';
    const wrong = () => dav(t.app, 'PROPFIND', '/dav/', { depth: '0', ...basic('1|wrong', user.email) }, undefined, address);
    const right = () => dav(t.app, 'PROPFIND', '/dav/', { depth: '0', ...basic(token, user.email) }, undefined, address);
    for (let i = 0; i < 4; i += 1) expect((await wrong()).statusCode).toBe(401);
    // Counted before the look-up like any attempt, then handed back: the fifth guess is still allowed.
    expect((await right()).statusCode).toBe(207);
    const burst = await Promise.all(Array.from({ length: 20 }, () => right()));
    expect(burst.map((answer) => answer.statusCode)).toEqual(Array(20).fill(207));
    expect((await wrong()).statusCode).toBe(401);
    expect((await wrong()).statusCode).toBe(429);
    // A right token never resets the count for the name it was sent with: the sign-in form stays throttled too.
    const form = new TestClient(t.app);
    form.remoteAddress = address;
    expect((await form.post('/auth/login', { email: user.email, password: user.password })).statusCode).toBe(429);
  });

  it('stops honouring a revoked token at once, proven or not', async () => {
    const { user } = await signedInUser(t.app);
    const { id, token } = await servicesOf(t.app).auth.accessTokens.create(user.id, 'webdav');
    const propfind = () => dav(t.app, 'PROPFIND', '/dav/', { depth: '0', ...basic(token) }, undefined, '203.0.113.22');
    expect((await propfind()).statusCode).toBe(207);
    await servicesOf(t.app).auth.accessTokens.revoke(user.id, id);
    expect((await propfind()).statusCode).toBe(401);
  });

  it('keeps read-only tokens to reading', async () => {
    const { user } = await signedInUser(t.app);
    await uploadFile(t.app, user, { name: 'a.txt', content: 'hello' });
    const token = await tokenFor(t.app, user.id, ['read']);
    expect((await dav(t.app, 'GET', '/dav/My%20drive/a.txt', basic(token))).body).toBe('hello');
    expect((await dav(t.app, 'PUT', '/dav/My%20drive/b.txt', basic(token), 'x')).statusCode).toBe(403);
    expect((await dav(t.app, 'DELETE', '/dav/My%20drive/a.txt', basic(token))).statusCode).toBe(403);
  });

  it("shows nobody else's files: another user's paths are 404, shared entries appear under Shared with me", async () => {
    const owner = await signedInUser(t.app);
    const other = await signedInUser(t.app);
    await uploadFile(t.app, owner.user, { name: 'private.txt', content: 'secret' });
    const folder = await createFolder(owner.client, 'Shared folder');
    await uploadFile(t.app, owner.user, { name: 'inside.txt', content: 'shared bytes', parentId: folder });
    const token = await tokenFor(t.app, other.user.id);
    expect((await dav(t.app, 'GET', '/dav/My%20drive/private.txt', basic(token))).statusCode).toBe(404);
    expect((await dav(t.app, 'GET', '/dav/Shared%20with%20me/Shared%20folder/inside.txt', basic(token))).statusCode).toBe(404);
    await owner.client.post('/api/v1/file-entries/shares', { entryIds: [folder], emails: [other.user.email], permission: 'view' });
    const shared = await dav(t.app, 'GET', '/dav/Shared%20with%20me/Shared%20folder/inside.txt', basic(token));
    expect(shared.statusCode).toBe(200);
    expect(shared.body).toBe('shared bytes');
    expect((await dav(t.app, 'PUT', '/dav/Shared%20with%20me/Shared%20folder/new.txt', basic(token), 'x')).statusCode).toBe(403);
  });

  it('lets a workspace viewer read but not write', async () => {
    const roles = await workspaceRoles((await signedInUser(t.app)).client);
    const owner = await signedInUser(t.app);
    const viewer = await signedInUser(t.app);
    const id = await createWorkspace(owner.client, 'Team');
    await addMember(t.app, t.dataDir, owner.client, id, viewer, roles.viewer);
    const ownerToken = await tokenFor(t.app, owner.user.id);
    expect((await dav(t.app, 'PUT', '/dav/Team/plan.txt', basic(ownerToken), 'the plan')).statusCode).toBe(201);
    const token = await tokenFor(t.app, viewer.user.id);
    expect((await dav(t.app, 'GET', '/dav/Team/plan.txt', basic(token))).body).toBe('the plan');
    expect((await dav(t.app, 'PUT', '/dav/Team/mine.txt', basic(token), 'x')).statusCode).toBe(403);
    expect((await dav(t.app, 'PUT', '/dav/Team/plan.txt', basic(token), 'x')).statusCode).toBe(403);
    expect((await dav(t.app, 'MKCOL', '/dav/Team/dir', basic(token))).statusCode).toBe(403);
    expect((await dav(t.app, 'DELETE', '/dav/Team/plan.txt', basic(token))).statusCode).toBe(403);
    // A workspace named like a fixed top is listed with a suffix; the fixed name stays the caller's own drive.
    const named = await createWorkspace(owner.client, 'My drive');
    expect((await dav(t.app, 'PROPFIND', '/dav/', { ...basic(ownerToken), depth: '1' })).body).toContain('<D:href>/dav/My%20drive%20(1)/</D:href>');
    expect((await dav(t.app, 'PUT', '/dav/My%20drive%20(1)/team.txt', basic(ownerToken), 'team')).statusCode).toBe(201);
    expect((await dav(t.app, 'PUT', '/dav/My%20drive/own.txt', basic(ownerToken), 'own')).statusCode).toBe(201);
    const inWorkspace = await owner.client.get(`/api/v1/drive/file-entries?folderId=0&perPage=50&workspaceId=${named}`);
    expect((inWorkspace.json() as { pagination: { data: { name: string }[] } }).pagination.data.map((e) => e.name)).toEqual(['team.txt']);
  });

  it('applies quota and upload restrictions to PUT, and the app sees what WebDAV wrote at once', async () => {
    const { user, client } = await signedInUser(t.app);
    const token = await tokenFor(t.app, user.id);
    await servicesOf(t.app).settings.set({ 'uploads.blocked_extensions': ['exe'] });
    expect((await dav(t.app, 'PUT', '/dav/My%20drive/tool.exe', basic(token), 'MZ')).statusCode).toBe(403);
    await servicesOf(t.app).settings.set({ 'uploads.blocked_extensions': [], 'uploads.max_size': 10 });
    expect((await dav(t.app, 'PUT', '/dav/My%20drive/big.txt', basic(token), 'x'.repeat(11))).statusCode).toBe(403);
    await servicesOf(t.app).settings.set({ 'uploads.max_size': null, 'uploads.available_space': 20 });
    expect((await dav(t.app, 'PUT', '/dav/My%20drive/fits.txt', basic(token), 'x'.repeat(15))).statusCode).toBe(201);
    expect((await dav(t.app, 'PUT', '/dav/My%20drive/over.txt', basic(token), 'x'.repeat(10))).statusCode).toBe(507);
    await servicesOf(t.app).settings.set({ 'uploads.available_space': null });
    expect(await listNames(client, 'folderId=0')).toEqual(['fits.txt']);
    expect((await dav(t.app, 'DELETE', '/dav/My%20drive/fits.txt', basic(token))).statusCode).toBe(204);
    expect(await listNames(client, 'deletedOnly=true')).toEqual(['fits.txt']);
    expect(await listNames(client, 'folderId=0')).toEqual([]);
  });

  it('lets parallel small PUTs together take no more than the space left: each is checked where it commits', async () => {
    const { user, client } = await signedInUser(t.app);
    const token = await tokenFor(t.app, user.id);
    await servicesOf(t.app).settings.set({ 'uploads.max_size': null, 'uploads.available_space': 5 * 1024 });
    // One request first: a token proven right is not counted against the sign-in limits, however parallel its use.
    expect((await dav(t.app, 'PROPFIND', '/dav/My%20drive/', { ...basic(token), depth: '0' })).statusCode).toBe(207);
    try {
      const statuses = await Promise.all(
        Array.from({ length: 8 }, (_, i) => dav(t.app, 'PUT', `/dav/My%20drive/part-${i}.bin`, basic(token), Buffer.alloc(1024, i)).then((r) => r.statusCode)),
      );
      expect(statuses.filter((status) => status === 201)).toHaveLength(5);
      expect(statuses.filter((status) => status === 507)).toHaveLength(3);
      expect(await listNames(client, 'folderId=0')).toHaveLength(5);
      // The refused ones left no bytes behind: what is charged is what was stored.
      expect(Number((await client.get('/api/v1/user/space-usage')).json().used)).toBe(5 * 1024);
    } finally {
      await servicesOf(t.app).settings.set({ 'uploads.available_space': null });
    }
  });

  it('commits parallel small PUTs together, each with its own answer: one too large for the space left is refused alone', async () => {
    const { user, client } = await signedInUser(t.app);
    const token = await tokenFor(t.app, user.id);
    const { commits } = servicesOf(t.app).drive;
    await servicesOf(t.app).settings.set({ 'uploads.max_size': null, 'uploads.available_space': 20 * 1024 });
    expect((await dav(t.app, 'PROPFIND', '/dav/My%20drive/', { ...basic(token), depth: '0' })).statusCode).toBe(207);
    const before = { ...commits.grouped };
    try {
      const sizes = [1024, 1024, 1024, 30 * 1024, 1024, 1024, 1024, 1024];
      const statuses = await Promise.all(
        sizes.map((size, i) => dav(t.app, 'PUT', `/dav/My%20drive/group-${i}.bin`, basic(token), Buffer.alloc(size, i)).then((r) => r.statusCode)),
      );
      expect(statuses).toEqual([201, 201, 201, 507, 201, 201, 201, 201]);
      // Two of the same name in one group: the second replaces the first's bytes (one file, the last writer wins).
      const same = await Promise.all(['one', 'two'].map((body) => dav(t.app, 'PUT', '/dav/My%20drive/group-same.bin', basic(token), body)));
      expect(same.map((r) => r.statusCode).sort()).toEqual([201, 204]);
      expect(['one', 'two']).toContain((await dav(t.app, 'GET', '/dav/My%20drive/group-same.bin', basic(token))).body);
      const names = await listNames(client, 'folderId=0');
      expect(names).toHaveLength(8);
      expect(names).not.toContain('group-3.bin');
      // Exactly the bytes stored: the seven files and the last writer's three bytes (the replaced ones are a version).
      expect(Number((await client.get('/api/v1/user/space-usage')).json().used)).toBe(7 * 1024 + 3 + 3);
      // SQLite commits them in groups; PostgreSQL commits each in its own transaction, side by side.
      if (DIALECT === 'sqlite') expect(commits.grouped.units).toBeGreaterThan(before.units);
      else expect(commits.grouped).toEqual(before);
    } finally {
      await servicesOf(t.app).settings.set({ 'uploads.available_space': null });
    }
  });

  it('adds parallel small PUTs to the sizes of every folder above them, however they were grouped', async () => {
    const { user } = await signedInUser(t.app);
    const token = await tokenFor(t.app, user.id);
    for (const folder of ['sizes', 'sizes/inner', 'sizes-other'])
      expect((await dav(t.app, 'MKCOL', `/dav/My%20drive/${folder}`, basic(token))).statusCode).toBe(201);
    const puts = [
      ...Array.from({ length: 6 }, (_, i) => ({ path: `sizes/inner/f${i}.bin`, size: 100 + i })),
      ...Array.from({ length: 4 }, (_, i) => ({ path: `sizes/g${i}.bin`, size: 1000 + i })),
      ...Array.from({ length: 5 }, (_, i) => ({ path: `sizes-other/h${i}.bin`, size: 1000 + i })),
    ];
    // One name twice in one folder: the second replaces the first, whose size then gives way to its own.
    puts.push({ path: 'sizes/inner/f0.bin', size: 7 });
    const statuses = await Promise.all(
      puts.map(({ path, size }) => dav(t.app, 'PUT', `/dav/My%20drive/${path}`, basic(token), Buffer.alloc(size, 1)).then((r) => r.statusCode)),
    );
    expect(statuses.filter((status) => status === 201)).toHaveLength(15);
    const folders = await servicesOf(t.app)
      .db.kysely.selectFrom('file_entries')
      .select(['name', 'file_size'])
      .where('owner_id', '=', user.id)
      .where('type', '=', 'folder')
      .execute();
    const sizeOf = (name: string) => Number(folders.find((folder) => folder.name === name)!.file_size);
    // f0.bin is whichever of its two PUTs came last (100 or 7 bytes), beside f1–f5 (515).
    expect([100 + 515, 7 + 515]).toContain(sizeOf('inner'));
    expect(sizeOf('sizes')).toBe(sizeOf('inner') + 4006);
    expect(sizeOf('sizes-other')).toBe(5010);
  });

  it('refuses traversal and odd names, and finds names in any Unicode normal form', async () => {
    const { user } = await signedInUser(t.app);
    const token = await tokenFor(t.app, user.id);
    for (const url of ['/dav/My%20drive/..%2F..%2Fetc', '/dav/My%20drive/a%2Fb.txt', '/dav/My%20drive/%2e%2e/x.txt', '/dav/My%20drive/bad%00name']) {
      // 400 for the path, or 403 where the HTTP layer already resolved the dot segments to the top level.
      expect([400, 403], url).toContain((await dav(t.app, 'PUT', url, basic(token), 'x')).statusCode);
    }
    expect((await dav(t.app, 'PROPFIND', '/dav/My%20drive/', { depth: '1', ...basic(token) })).body).not.toMatch(/etc|x\.txt|b\.txt|bad/);
    const nfd = encodeURIComponent('Cafe\u0301.txt');
    expect((await dav(t.app, 'PUT', `/dav/My%20drive/${nfd}`, basic(token), 'coffee')).statusCode).toBe(201);
    expect((await dav(t.app, 'GET', `/dav/My%20drive/${encodeURIComponent('Café.txt')}`, basic(token))).body).toBe('coffee');
    expect((await dav(t.app, 'PUT', '/dav/Nowhere/x.txt', basic(token), 'x')).statusCode).toBe(409);
    expect((await dav(t.app, 'MKCOL', '/dav/New%20top', basic(token))).statusCode).toBe(403);
  });

  it('keeps the bytes of a PUT that lands while a LOCK on the free name is creating its empty file', async () => {
    const { user } = await signedInUser(t.app);
    const headers = basic(await tokenFor(t.app, user.id));
    const { uploads } = servicesOf(t.app).uploads;
    const storeWhole = uploads.storeWhole.bind(uploads);
    let letLockGo!: () => void;
    const putDone = new Promise<void>((resolve) => (letLockGo = resolve));
    let lockWaiting!: () => void;
    const lockArrived = new Promise<void>((resolve) => (lockWaiting = resolve));
    // The LOCK found the name free; it is held there until the PUT has made the file.
    const spy = vi.spyOn(uploads, 'storeWhole').mockImplementation(async (...args) => {
      if (args[3].length === 0) {
        lockWaiting();
        await putDone;
      }
      return storeWhole(...args);
    });
    try {
      const lockInfo =
        '<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>';
      const locking = dav(t.app, 'LOCK', '/dav/My%20drive/lock-null.txt', { ...headers, 'content-type': 'application/xml' }, lockInfo);
      await lockArrived;
      expect((await dav(t.app, 'PUT', '/dav/My%20drive/lock-null.txt', headers, 'the bytes of the PUT')).statusCode).toBe(201);
      letLockGo();
      const locked = await locking;
      // The file was there by the time the lock took: it locks that file (200), it does not create one.
      expect(locked.statusCode).toBe(200);
      expect(locked.headers['lock-token']).toMatch(/^<opaquelocktoken:/);
    } finally {
      spy.mockRestore();
    }
    expect((await dav(t.app, 'GET', '/dav/My%20drive/lock-null.txt', headers)).body).toBe('the bytes of the PUT');
    // The lock holds the file: a PUT without its token is refused.
    expect((await dav(t.app, 'PUT', '/dav/My%20drive/lock-null.txt', headers, 'other')).statusCode).toBe(423);
  });

  it('lists a folder and serves a file in a handful of statements, however many members and dead properties there are', async () => {
    const { user } = await signedInUser(t.app);
    const headers = basic(await tokenFor(t.app, user.id));
    expect((await dav(t.app, 'MKCOL', '/dav/My%20drive/budget', headers)).statusCode).toBe(201);
    const patch = (n: number) =>
      `<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:budget"><D:set><D:prop><Z:n>${n}</Z:n></D:prop></D:set></D:propertyupdate>`;
    const counter = servicesOf(t.app).db.counter;
    const statementsOf = async (method: string, url: string, extra: Headers = {}) => {
      const before = counter.statements;
      const answer = await dav(t.app, method, url, { ...headers, ...extra });
      return { answer, statements: counter.statements - before };
    };
    const listed: number[] = [];
    for (const size of [2, 12]) {
      while (listed.length < size) {
        const n = listed.length;
        expect((await dav(t.app, 'PUT', `/dav/My%20drive/budget/f${n}.txt`, headers, `file ${n}`)).statusCode).toBe(201);
        expect((await dav(t.app, 'PROPPATCH', `/dav/My%20drive/budget/f${n}.txt`, headers, patch(n))).statusCode).toBe(207);
        listed.push(n);
      }
      const { answer, statements } = await statementsOf('PROPFIND', '/dav/My%20drive/budget/', { depth: '1' });
      expect(answer.statusCode).toBe(207);
      // Every member's dead property is there, by its own href.
      for (const n of listed) expect(answer.body).toContain(`<D:href>/dav/My%20drive/budget/f${n}.txt</D:href><D:propstat><D:prop>`);
      for (const n of listed) expect(answer.body).toMatch(new RegExp(`budget/f${n}\\.txt</D:href>(?:(?!</D:response>).)*<Z:n [^>]*>${n}</Z:n>`));
      // The path, the members, their properties and their locks: the token is the access cache's, and the policy
      // decides on the folder's row that the path's look-up found (no second look-up).
      expect(statements).toBeLessThanOrEqual(4);
    }
    // Warm: the token and who the caller is come from the access cache once a request read them.
    expect((await dav(t.app, 'HEAD', '/dav/My%20drive/budget/f0.txt', headers)).statusCode).toBe(200);
    const { answer, statements } = await statementsOf('GET', '/dav/My%20drive/budget/f0.txt');
    expect(answer.body).toBe('file 0');
    // My drive needs no list of workspaces: the two names on the path, nothing else. The policy decides on the rows
    // found by name, for the path and for the download, without loading them again.
    expect(statements).toBeLessThanOrEqual(2);
  });

  it('stores a small file in a pinned number of statements, however full its folder', async () => {
    const { user } = await signedInUser(t.app);
    const headers = basic(await tokenFor(t.app, user.id));
    const counter = servicesOf(t.app).db.counter;
    expect((await dav(t.app, 'MKCOL', '/dav/My%20drive/put-budget', headers)).statusCode).toBe(201);
    const putCost = async (name: string, status: number) => {
      // Warm: the token and the settings are the access cache's.
      expect((await dav(t.app, 'PROPFIND', '/dav/My%20drive/put-budget/', { ...headers, depth: '0' })).statusCode).toBe(207);
      const before = counter.statements;
      expect((await dav(t.app, 'PUT', `/dav/My%20drive/put-budget/${name}`, headers, Buffer.alloc(1024, 7))).statusCode).toBe(status);
      return counter.statements - before;
    };
    // PostgreSQL also takes the payer's row lock (quota) and the folder's advisory lock (names).
    const locks = DIALECT === 'postgres' ? 2 : 0;
    for (let i = 0; i < 20; i += 1) {
      // Two names on the path, the locks there, the plan (the folder's policy check decides on the row its name
      // found: no second read); then one transaction: the folder again, the name, the quota (what is charged and
      // reserved, in one statement: a small file reserves nothing, it is checked where it commits), the insert, its
      // path (the row comes back with it), the folders' sizes and its activity record (issue 35). No settings
      // (cached) and no token (cached).
      expect(await putCost(`f${i}.bin`, 201), `new file ${i}`).toBeLessThanOrEqual(11 + locks);
    }
    // A replace also reserves and releases its space, keeps the old bytes as a version and settles the space.
    expect(await putCost('f0.bin', 204)).toBeLessThanOrEqual(13 + locks);
  });

  it('stores parallel small files in fewer statements each when SQLite commits them as a group', async () => {
    const { user } = await signedInUser(t.app);
    const headers = basic(await tokenFor(t.app, user.id));
    const { counter } = servicesOf(t.app).db;
    const { commits } = servicesOf(t.app).drive;
    expect((await dav(t.app, 'MKCOL', '/dav/My%20drive/group-budget', headers)).statusCode).toBe(201);
    expect((await dav(t.app, 'PROPFIND', '/dav/My%20drive/group-budget/', { ...headers, depth: '0' })).statusCode).toBe(207);
    const before = { statements: counter.statements, ...commits.grouped };
    const statuses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        dav(t.app, 'PUT', `/dav/My%20drive/group-budget/g${i}.bin`, headers, Buffer.alloc(1024, i)).then((r) => r.statusCode),
      ),
    );
    expect(statuses).toEqual(Array(8).fill(201));
    const statements = counter.statements - before.statements;
    const grouped = commits.grouped.units - before.units;
    const groups = commits.grouped.groups - before.groups;
    // A file alone: the eleven statements of the test above (PostgreSQL: and its two locks). In a group: one fewer
    // each (its folders' sizes are written once for the group, by one statement a group; there were 10 a file).
    const locks = DIALECT === 'postgres' ? 2 : 0;
    expect(statements).toBeLessThanOrEqual(9 * grouped + groups + (11 + locks) * (8 - grouped));
    if (DIALECT === 'sqlite') expect(grouped).toBeGreaterThan(0);
  });

  it('stops a revoked token at once, though the cache held it', async () => {
    const { user } = await signedInUser(t.app);
    const created = await servicesOf(t.app).auth.accessTokens.create(user.id, 'webdav', null, ['read', 'write']);
    const headers = { ...basic(created.token), depth: '0' };
    const counter = servicesOf(t.app).db.counter;
    const cost = async () => {
      const before = counter.statements;
      expect((await dav(t.app, 'PROPFIND', '/dav/', headers)).statusCode).toBe(207);
      return counter.statements - before;
    };
    // The first request reads the token (and writes its "last used" time); the next ones find it in the cache.
    const cold = await cost();
    const warm = await cost();
    expect(cold - warm).toBeGreaterThanOrEqual(1);
    expect(await servicesOf(t.app).auth.accessTokens.revoke(user.id, created.id)).toBe(true);
    expect((await dav(t.app, 'PROPFIND', '/dav/', headers)).statusCode).toBe(401);
    // A wrong secret for a token that is cached is never a hit.
    const other = await servicesOf(t.app).auth.accessTokens.create(user.id, 'webdav', null, ['read', 'write']);
    expect((await dav(t.app, 'PROPFIND', '/dav/', { ...basic(other.token), depth: '0' })).statusCode).toBe(207);
    expect((await dav(t.app, 'PROPFIND', '/dav/', { ...basic(`${other.id}|${'x'.repeat(40)}`), depth: '0' })).statusCode).toBe(401);
  });
});
