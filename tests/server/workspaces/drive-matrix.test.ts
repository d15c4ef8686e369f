import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntryAction } from '../../../server/modules/access/actions.js';
import { makeVersion, routes, type Call, type Fixture } from '../access/route-table.js';
import { TestClient } from '../support/client.js';
import { pngBytes, signedInUser } from '../support/drive-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { multipartUpload } from '../uploads/support.js';
import { addMember, createWorkspace, workspaceRoles } from './support.js';
import { servicesOf } from '../support/services-handle.js';

/**
 * Every drive and upload route inside a workspace against each kind of
 * caller: a guest (401), a non-member (404), and the Viewer, Editor and Admin
 * members (their role's actions allowed, the rest 403), then the owner.
 */
const ROLE_ACTIONS: Record<'viewer' | 'editor' | 'admin', EntryAction[]> = {
  viewer: ['files.view', 'files.download'],
  editor: ['files.view', 'files.download', 'files.create', 'files.update', 'files.delete'],
  admin: ['files.view', 'files.download', 'files.create', 'files.update', 'files.delete', 'files.share'],
};

describe('every drive and upload route in a workspace', () => {
  let t: TestApp;
  let workspaceId: number;
  let owner: TestClient;
  let stranger: TestClient;
  let bystander: string;
  const members = {} as Record<keyof typeof ROLE_ACTIONS, TestClient>;
  let counter = 0;

  const inWorkspace = (call: Call): Call => ({ ...call, url: `${call.url}${call.url.includes('?') ? '&' : '?'}workspaceId=${workspaceId}` });
  const send = (client: TestClient, call: Call) => client.request(call.method, call.url, { body: call.body, headers: call.headers });

  async function upload(name: string, content: Buffer, parentId: string): Promise<string> {
    const { body, headers } = multipartUpload({ parentId }, { name, content });
    const response = await owner.request('POST', `/api/v1/file-entries?workspaceId=${workspaceId}`, { body, headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().fileEntry.hash;
  }

  /** A fresh set of entries in the workspace, made by its owner. */
  async function fixture(): Promise<Fixture> {
    counter += 1;
    const folderCall = (name: string) => owner.post(`/api/v1/folders?workspaceId=${workspaceId}`, { name, parentId: null });
    const folder = (await folderCall(`Folder ${counter}`)).json().folder.hash;
    const other = (await folderCall(`Other ${counter}`)).json().folder.hash;
    const file = await upload('a.txt', Buffer.from('hello'), folder);
    const image = await upload('i.png', await pngBytes(40, 30), folder);
    const trashed = await upload('t.txt', Buffer.from('bye'), folder);
    await owner.post(`/api/v1/file-entries/delete?workspaceId=${workspaceId}`, { entryIds: [trashed] });
    const version = await makeVersion((call) => send(owner, call), folder, file, `?workspaceId=${workspaceId}`);
    return { folder, other, file, image, trashed, version, recipient: bystander };
  }

  beforeAll(async () => {
    t = await createTestApp();
    const ownerUser = await signedInUser(t.app);
    owner = ownerUser.client;
    stranger = (await signedInUser(t.app)).client;
    bystander = (await signedInUser(t.app)).user.email;
    workspaceId = await createWorkspace(owner);
    const roles = await workspaceRoles(owner);
    for (const role of ['viewer', 'editor', 'admin'] as const) {
      const member = await signedInUser(t.app);
      await addMember(t.app, t.dataDir, owner, workspaceId, member, roles[role]);
      members[role] = member.client;
    }
  }, 60_000);
  afterAll(() => t.close());

  describe.each(routes)('$name ($action)', ({ action, also, call, ok }) => {
    it('guest 401, non-member 404, each role as it allows, the owner success', async () => {
      const fx = await fixture();
      expect((await send(new TestClient(t.app), inWorkspace(call(fx)))).statusCode).toBe(401);
      expect((await send(stranger, inWorkspace(call(fx)))).statusCode).toBe(404);
      for (const role of ['viewer', 'editor', 'admin'] as const) {
        const allowed = [action, ...(also ?? [])].every((needed) => ROLE_ACTIONS[role].includes(needed));
        // A success changes the entries: each allowed call gets fresh ones.
        const response = await send(members[role], inWorkspace(call(allowed ? await fixture() : fx)));
        expect(response.statusCode, `${role}: ${response.body}`).toBe(allowed ? (ok ?? 200) : 403);
      }
      const response = await send(owner, inWorkspace(call(await fixture())));
      expect(response.statusCode, response.body).toBe(ok ?? 200);
    });
  });

  it('concurrent joins of one invite make one membership', async () => {
    const invitee = await signedInUser(t.app);
    const roles = await workspaceRoles(owner);
    await owner.post(`/api/v1/workspace/${workspaceId}/invite`, { emails: [invitee.user.email], roleId: roles.viewer });
    const invite = await servicesOf(t.app)
      .db.kysely.selectFrom('workspace_invites')
      .select('id')
      .where('email', '=', invitee.user.email)
      .executeTakeFirstOrThrow();
    const answers = await Promise.all([1, 2, 3].map(() => invitee.client.get(`/api/v1/workspace/join/${invite.id}`)));
    expect(answers.some((a) => a.statusCode === 200)).toBe(true);
    const rows = await servicesOf(t.app).db.kysely.selectFrom('workspace_members').select('id').where('user_id', '=', invitee.user.id).execute();
    expect(rows).toHaveLength(1);
  });
});
