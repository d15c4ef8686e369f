import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntryAction } from '../../../server/modules/access/actions.js';
import { SHARE_ACTIONS } from '../../../server/modules/access/grants.repository.js';
import { type Call, type Fixture, makeVersion, routes } from '../access/route-table.js';
import { TestClient } from '../support/client.js';
import { createFolder, pngBytes, signedInUser, uploadFile } from '../support/drive-factories.js';
import type { CreatedUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/**
 * Every drive and upload route on entries shared with people: a guest (401),
 * someone the entries are not shared with (404), a viewer and an editor (their
 * share's actions allowed, the rest 403), and the owner.
 */
describe('every drive and upload route on shared entries', () => {
  let t: TestApp;
  let owner: { user: CreatedUser; client: TestClient };
  let stranger: TestClient;
  let bystander: string;
  const recipients = {} as Record<'view' | 'edit', { user: CreatedUser; client: TestClient }>;
  let counter = 0;

  const send = (client: TestClient, call: Call) => client.request(call.method, call.url, { body: call.body, headers: call.headers });

  /** Fresh entries of the owner's, both folders shared with the viewer and the editor. */
  async function fixture(): Promise<Fixture> {
    counter += 1;
    const folder = await createFolder(owner.client, `Folder ${counter}`);
    const other = await createFolder(owner.client, `Other ${counter}`);
    const file = (await uploadFile(t.app, owner.user, { name: 'a.txt', content: 'hello', parentId: folder })).hash;
    const image = (await uploadFile(t.app, owner.user, { name: 'i.png', content: await pngBytes(40, 30), parentId: folder })).hash;
    const trashed = (await uploadFile(t.app, owner.user, { name: 't.txt', parentId: folder })).hash;
    await owner.client.post('/api/v1/file-entries/delete', { entryIds: [trashed] });
    for (const permission of ['view', 'edit'] as const) {
      const shared = await owner.client.post('/api/v1/file-entries/shares', {
        entryIds: [folder, other],
        emails: [recipients[permission].user.email],
        permission,
      });
      expect(shared.statusCode, shared.body).toBe(200);
    }
    const version = await makeVersion((call) => send(owner.client, call), folder, file);
    return { folder, other, file, image, trashed, version, recipient: bystander };
  }

  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInUser(t.app);
    stranger = (await signedInUser(t.app)).client;
    bystander = (await signedInUser(t.app)).user.email;
    recipients.view = await signedInUser(t.app);
    recipients.edit = await signedInUser(t.app);
  });
  afterAll(() => t.close());

  describe.each(routes)('$name ($action)', ({ action, also, call, ok }) => {
    it('guest 401, not shared 404, viewer and editor as their share allows, the owner success', async () => {
      const fx = await fixture();
      expect((await send(new TestClient(t.app), call(fx))).statusCode).toBe(401);
      expect((await send(stranger, call(fx))).statusCode).toBe(404);
      for (const permission of ['view', 'edit'] as const) {
        const allowed = [action, ...(also ?? [])].every((needed: EntryAction) => SHARE_ACTIONS[permission]!.includes(needed));
        const response = await send(recipients[permission].client, call(allowed ? await fixture() : fx));
        expect(response.statusCode, `${permission}: ${response.body}`).toBe(allowed ? (ok ?? 200) : 403);
      }
      const response = await send(owner.client, call(await fixture()));
      expect(response.statusCode, response.body).toBe(ok ?? 200);
    });
  });
});
