import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowIso } from '../../../server/lib/time.js';
import { TestClient } from '../support/client.js';
import { signedInUser, uploadFile } from '../support/drive-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { addMember, createWorkspace, inviteIdFromMail, workspaceRoles } from './support.js';
import { servicesOf } from '../support/services-handle.js';

/** Issue 32.3: an invite link names its workspace and inviter; a workspace's storage meter is its payer's. */
describe('where am I: invite previews and a workspace’s storage', () => {
  let t: TestApp;
  let roles: Awaited<ReturnType<typeof workspaceRoles>>;
  beforeAll(async () => {
    t = await createTestApp();
    roles = await workspaceRoles((await signedInUser(t.app)).client);
  });
  afterAll(() => t.close());

  it('tells the bearer of an invite link, signed in or not, the workspace and who invited; unknown or expired is 404', async () => {
    const owner = await signedInUser(t.app);
    const id = await createWorkspace(owner.client, 'Design team');
    await owner.client.post(`/api/v1/workspace/${id}/invite`, { emails: ['newcomer@example.com'], roleId: roles.viewer });
    const inviteId = await inviteIdFromMail(t.dataDir, 'newcomer@example.com');

    const guest = new TestClient(t.app);
    const preview = await guest.get(`/api/v1/workspace/invite/${inviteId}`);
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toEqual({
      invite: { workspace: { id, name: 'Design team' }, inviter: expect.stringMatching(/^Test User \d+$/) },
    });
    expect((await guest.get('/api/v1/workspace/invite/no-such-invite')).statusCode).toBe(404);
    // Declining on the same path is still for a signed-in user.
    expect((await guest.request('DELETE', `/api/v1/workspace/invite/${inviteId}`)).statusCode).toBe(401);

    await servicesOf(t.app).db.kysely.updateTable('workspace_invites').set({ expires_at: nowIso() }).where('id', '=', inviteId).execute();
    expect((await guest.get(`/api/v1/workspace/invite/${inviteId}`)).statusCode).toBe(404);
  });

  it('lists an invitation already joined or declined without Join and Decline (issue 32.5)', async () => {
    const owner = await signedInUser(t.app);
    const invitee = await signedInUser(t.app);
    const joinId = await createWorkspace(owner.client, 'Joined team');
    const declineId = await createWorkspace(owner.client, 'Declined team');
    await owner.client.post(`/api/v1/workspace/${joinId}/invite`, { emails: [invitee.user.email], roleId: roles.viewer });
    const toJoin = await inviteIdFromMail(t.dataDir, invitee.user.email);
    await owner.client.post(`/api/v1/workspace/${declineId}/invite`, { emails: [invitee.user.email], roleId: roles.viewer });
    const toDecline = (
      await servicesOf(t.app).db.kysely.selectFrom('workspace_invites').select('id').where('workspace_id', '=', declineId).executeTakeFirstOrThrow()
    ).id;
    type Row = { data: { inviteId?: string; buttonActions?: unknown[]; mainAction: { action: string } } };
    const rows = async () => (await invitee.client.get('/api/v1/notifications')).json().pagination.data as Row[];
    expect((await rows()).map((row) => row.data.buttonActions?.length)).toEqual([2, 2]);

    expect((await invitee.client.get(`/api/v1/workspace/join/${toJoin}`)).statusCode).toBe(200);
    expect((await invitee.client.request('DELETE', `/api/v1/workspace/invite/${toDecline}`)).statusCode).toBe(200);
    for (const row of await rows()) {
      expect(row.data.buttonActions).toBeUndefined();
      expect(row.data.inviteId).toBeUndefined();
      expect(row.data.mainAction.action).toBe('/drive');
    }
  });

  it("answers a workspace's storage as its payer's, for members only", async () => {
    const owner = await signedInUser(t.app);
    const member = await signedInUser(t.app);
    const stranger = await signedInUser(t.app);
    const id = await createWorkspace(owner.client, 'Storage team');
    await addMember(t.app, t.dataDir, owner.client, id, member, roles.viewer);
    await uploadFile(t.app, owner.user, { name: 'big.bin', content: Buffer.alloc(5000) });

    const own = (await member.client.get('/api/v1/user/space-usage')).json();
    const inWorkspace = await member.client.get(`/api/v1/user/space-usage?workspaceId=${id}`);
    expect(inWorkspace.statusCode, inWorkspace.body).toBe(200);
    expect(inWorkspace.json()).toEqual((await owner.client.get('/api/v1/user/space-usage')).json());
    expect(inWorkspace.json().used).toBeGreaterThanOrEqual(5000);
    expect(own.used).toBe(0);
    expect((await stranger.client.get(`/api/v1/user/space-usage?workspaceId=${id}`)).statusCode).toBe(404);
  });
});
