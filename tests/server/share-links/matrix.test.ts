import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Call, makeVersion, routes } from '../access/route-table.js';
import type { TestClient } from '../support/client.js';
import { createFolder, pngBytes, signedInUser, uploadFile } from '../support/drive-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { multipartUpload } from '../uploads/support.js';
import { guest, linkPath, makeLink, type LinkSettings, type Person } from './support.js';
import { servicesOf } from '../support/services-handle.js';

/**
 * The link grant source as a table: every call a link visitor can make, for a
 * link in each state it can be in, and every drive route for a guest holding
 * an unlocked link (the link opens its own calls, never the drive's).
 */
type State = 'open' | 'view only' | 'file drop' | 'locked' | 'unlocked' | 'expired' | 'revoked' | 'used up' | 'maker suspended';
type VisitorCall = 'info' | 'list' | 'preview' | 'thumbnail' | 'download' | 'upload';

const expected: Record<State, Record<VisitorCall, number>> = {
  open: { info: 200, list: 200, preview: 200, thumbnail: 200, download: 200, upload: 403 },
  'view only': { info: 200, list: 200, preview: 200, thumbnail: 200, download: 403, upload: 403 },
  'file drop': { info: 200, list: 403, preview: 404, thumbnail: 404, download: 404, upload: 200 },
  locked: { info: 200, list: 403, preview: 403, thumbnail: 403, download: 403, upload: 403 },
  unlocked: { info: 200, list: 200, preview: 200, thumbnail: 200, download: 200, upload: 403 },
  expired: { info: 404, list: 404, preview: 404, thumbnail: 404, download: 404, upload: 404 },
  revoked: { info: 404, list: 404, preview: 404, thumbnail: 404, download: 404, upload: 404 },
  'used up': { info: 410, list: 410, preview: 410, thumbnail: 410, download: 410, upload: 410 },
  'maker suspended': { info: 404, list: 404, preview: 404, thumbnail: 404, download: 404, upload: 404 },
};

const SETTINGS: Record<State, LinkSettings> = {
  open: {},
  'view only': { allowDownload: false },
  'file drop': { fileDrop: true },
  locked: { password: 'secret word' },
  unlocked: { password: 'secret word' },
  expired: { expiresAt: new Date(Date.now() + 3_600_000).toISOString() },
  revoked: {},
  'used up': { maxDownloads: 1 },
  'maker suspended': {},
};

describe('what a link lets its holder do, state by state', () => {
  let t: TestApp;
  let owner: Person;
  let counter = 0;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInUser(t.app);
  });
  afterAll(() => t.close());

  async function linked(state: State) {
    const maker = state === 'maker suspended' ? await signedInUser(t.app) : owner;
    const folder = await createFolder(maker.client, `Linked ${state} ${(counter += 1)}`);
    const file = (await uploadFile(t.app, maker.user, { name: 'a.txt', content: 'abc', parentId: folder })).hash;
    const image = (await uploadFile(t.app, maker.user, { name: 'i.png', content: await pngBytes(40, 30), parentId: folder })).hash;
    const link = await makeLink(maker, folder, SETTINGS[state]);
    const visitor = guest(t.app);
    if (state === 'unlocked') expect((await visitor.post(linkPath(link.token, '/password'), { password: 'secret word' })).statusCode).toBe(200);
    if (state === 'expired') {
      await servicesOf(t.app)
        .db.kysely.updateTable('share_links')
        .set({ expires_at: new Date(Date.now() - 1).toISOString() })
        .where('id', '=', link.id)
        .execute();
    }
    if (state === 'revoked') await owner.client.request('DELETE', `/api/v1/file-entries/${folder}/share-links`);
    if (state === 'maker suspended') {
      const admin = await signedInUser(t.app, { roles: ['admin'] });
      expect((await admin.client.post('/api/v1/admin/users/bulk-update', { ids: [maker.user.id], action: 'suspend' })).statusCode).toBe(200);
    }
    if (state === 'used up') expect((await guest(t.app).get(linkPath(link.token, `/download?hashes=${file}`))).statusCode).toBe(200);
    return { folder, file, image, token: link.token, visitor };
  }

  const call = (name: VisitorCall, fx: Awaited<ReturnType<typeof linked>>) => {
    switch (name) {
      case 'info':
        return fx.visitor.get(linkPath(fx.token));
      case 'list':
        return fx.visitor.get(linkPath(fx.token, '/entries'));
      case 'preview':
        return fx.visitor.get(linkPath(fx.token, `/preview/${fx.file}`));
      case 'thumbnail':
        return fx.visitor.get(linkPath(fx.token, `/thumbnail/${fx.image}`));
      case 'download':
        return fx.visitor.get(linkPath(fx.token, `/download?hashes=${fx.file}`));
      case 'upload':
        return fx.visitor.request('POST', linkPath(fx.token, '/file-entries'), multipartUpload({}, { name: 'in.txt', content: Buffer.from('x') }));
    }
  };

  it.each(Object.keys(expected) as State[])('%s', async (state) => {
    const fx = await linked(state);
    const answers: Record<string, number> = {};
    // Uploads last: a file drop's upload changes nothing else in the row, but keep the order stable.
    for (const name of Object.keys(expected[state]) as VisitorCall[]) answers[name] = (await call(name, fx)).statusCode;
    expect(answers).toEqual(expected[state]);
  });

  it('opens none of the drive’s own routes to a guest holding an unlocked link', async () => {
    const fx = await linked('unlocked');
    const other = (await uploadFile(t.app, owner.user, { name: 'other.txt', parentId: fx.folder })).hash;
    const trashed = (await uploadFile(t.app, owner.user, { name: 't.txt', parentId: fx.folder })).hash;
    const send = (client: TestClient, request: Call) => client.request(request.method, request.url, { body: request.body, headers: request.headers });
    const version = await makeVersion((request) => send(owner.client, request), fx.folder, fx.file);
    const fixture = { folder: fx.folder, other, file: fx.file, image: fx.image, trashed, version, recipient: owner.user.email };
    for (const route of routes) expect((await send(fx.visitor, route.call(fixture))).statusCode, route.name).toBe(401);
  });
});
