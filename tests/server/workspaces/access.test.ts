import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.js';
import { signedInUser } from '../support/drive-factories.js';
import { withoutPermissions } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { addMember, createWorkspace, inviteIdFromMail, workspaceRoles } from './support.js';
import { servicesOf } from '../support/services-handle.js';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Every workspace route against the callers the policy tells apart: a guest
 * (401), a signed-in stranger (404: the workspace is not revealed), a viewer
 * member whose role lacks the action (403), and the one who may (2xx). Each
 * row builds a fresh workspace, so a success never changes another row's fixture.
 */
interface Fixture {
  id: number;
  inviteId: string;
  editorMemberId: number;
  roles: Awaited<ReturnType<typeof workspaceRoles>>;
}
interface Row {
  name: string;
  call: (fx: Fixture) => { method: Method; url: string; body?: unknown };
  /** A viewer member may do it (no 403 row). */
  memberMay?: boolean;
}

const rows: Row[] = [
  { name: 'show', call: (fx) => ({ method: 'GET', url: `/api/v1/workspace/${fx.id}?with=members,invites` }), memberMay: true },
  { name: 'rename', call: (fx) => ({ method: 'PUT', url: `/api/v1/workspace/${fx.id}`, body: { name: 'Renamed' } }) },
  { name: 'delete', call: (fx) => ({ method: 'DELETE', url: `/api/v1/workspace/${fx.id}` }) },
  {
    name: 'invite',
    call: (fx) => ({ method: 'POST', url: `/api/v1/workspace/${fx.id}/invite`, body: { emails: ['x@example.com'], roleId: fx.roles.viewer } }),
  },
  { name: 'resend', call: (fx) => ({ method: 'POST', url: `/api/v1/workspace/${fx.id}/${fx.inviteId}/resend` }) },
  {
    name: 'change a member role',
    call: (fx) => ({ method: 'POST', url: `/api/v1/workspace/${fx.id}/member/${fx.editorMemberId}/change-role`, body: { roleId: fx.roles.viewer } }),
  },
  {
    name: 'change an invite role',
    call: (fx) => ({ method: 'POST', url: `/api/v1/workspace/${fx.id}/invite/${fx.inviteId}/change-role`, body: { roleId: fx.roles.editor } }),
  },
  { name: 'remove a member', call: (fx) => ({ method: 'DELETE', url: `/api/v1/workspace/${fx.id}/member/${fx.editorMemberId}` }) },
  { name: 'revoke an invite', call: (fx) => ({ method: 'DELETE', url: `/api/v1/workspace/invite/${fx.inviteId}` }) },
  { name: 'list files', call: (fx) => ({ method: 'GET', url: `/api/v1/drive/file-entries?workspaceId=${fx.id}` }), memberMay: true },
  { name: 'create a folder', call: (fx) => ({ method: 'POST', url: `/api/v1/folders?workspaceId=${fx.id}`, body: { name: 'New', parentId: null } }) },
];

describe('workspace routes: who may call them', () => {
  let t: TestApp;
  let roles: Fixture['roles'];

  beforeAll(async () => {
    t = await createTestApp();
    roles = await workspaceRoles((await signedInUser(t.app)).client);
  });
  afterAll(() => t.close());

  async function fixture() {
    const owner = await signedInUser(t.app);
    const viewer = await signedInUser(t.app);
    const editor = await signedInUser(t.app);
    const id = await createWorkspace(owner.client);
    await addMember(t.app, t.dataDir, owner.client, id, viewer, roles.viewer);
    const editorMemberId = await addMember(t.app, t.dataDir, owner.client, id, editor, roles.editor);
    const email = `pending-${id}@example.com`;
    await owner.client.post(`/api/v1/workspace/${id}/invite`, { emails: [email], roleId: roles.viewer });
    const fx: Fixture = { id, inviteId: await inviteIdFromMail(t.dataDir, email), editorMemberId, roles };
    return { fx, owner, viewer };
  }

  const send = (client: TestClient, call: ReturnType<Row['call']>) => client.request(call.method, call.url, call.body === undefined ? {} : { body: call.body });

  it.each(rows)('$name: 401 for a guest, 404 for a stranger, 403 for a member without the right, 2xx for the owner', async (row) => {
    const { fx, owner, viewer } = await fixture();
    const call = row.call(fx);
    expect((await send(new TestClient(t.app), call)).statusCode).toBe(401);
    expect((await send((await signedInUser(t.app)).client, call)).statusCode).toBe(404);
    if (!row.memberMay) expect((await send(viewer.client, call)).statusCode).toBe(403);
    const allowed = await send(owner.client, call);
    expect(allowed.statusCode, allowed.body).toBe(200);
  });

  it('401 for a guest on the calls that name no workspace', async () => {
    const guest = new TestClient(t.app);
    for (const url of ['/api/v1/me/workspaces', '/api/v1/workspace-roles', '/api/v1/workspace/join/abc']) expect((await guest.get(url)).statusCode).toBe(401);
    expect((await guest.post('/api/v1/workspace', { name: 'Mine' })).statusCode).toBe(401);
  });

  it('403 for creating a workspace without workspaces.create', async () => {
    const { client, user } = await signedInUser(t.app);
    await withoutPermissions(servicesOf(t.app).db.kysely, user.id, ['workspaces.create']);
    expect((await client.post('/api/v1/workspace', { name: 'Mine' })).statusCode).toBe(403);
  });
});
