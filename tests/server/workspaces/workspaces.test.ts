import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowIso } from '../../../server/lib/time.js';
import type { TestClient } from '../support/client.js';
import { signedInUser } from '../support/drive-factories.js';
import { mailsTo } from '../support/mail.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { addMember, createWorkspace, inviteIdFromMail, workspaceRoles } from './support.js';
import { servicesOf } from '../support/services-handle.js';

interface MemberRow {
  model_type: 'member' | 'invite';
  id: number | string;
  member_id?: number;
  email: string;
  role_id: number | null;
  role_name: string | null;
  is_owner: boolean;
  permissions: { name: string }[];
}
interface Workspace {
  id: number;
  name: string;
  default: boolean;
  owner_id: number | null;
  members_count: number;
  members?: MemberRow[];
  invites?: MemberRow[];
}

describe('team workspaces (spec §1, §4, §7)', () => {
  let t: TestApp;
  let roles: Awaited<ReturnType<typeof workspaceRoles>>;

  beforeAll(async () => {
    t = await createTestApp();
    roles = await workspaceRoles((await signedInUser(t.app)).client);
  });
  afterAll(() => t.close());

  const details = async (client: TestClient, id: number) => {
    const response = await client.get(`/api/v1/workspace/${id}?with=members,invites`);
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { workspace: Workspace }).workspace;
  };

  it('lists the personal workspace first, then the ones the user belongs to with their member counts', async () => {
    const owner = await signedInUser(t.app);
    const member = await signedInUser(t.app);
    const id = await createWorkspace(owner.client, 'Design team');
    await addMember(t.app, t.dataDir, owner.client, id, member, roles.editor);

    for (const { client, user } of [owner, member]) {
      const list = (await client.get('/api/v1/me/workspaces')).json() as { workspaces: Workspace[] };
      expect(list.workspaces[0]).toMatchObject({ id: 0, name: 'Default', default: true, owner_id: user.id, members_count: 1 });
      expect(list.workspaces.slice(1)).toEqual([
        expect.objectContaining({ id, name: 'Design team', default: false, owner_id: owner.user.id, members_count: 2 }),
      ]);
    }
    const stranger = await signedInUser(t.app);
    expect(((await stranger.client.get('/api/v1/me/workspaces')).json() as { workspaces: Workspace[] }).workspaces.map((w) => w.id)).toEqual([0]);
  });

  it('needs a name of at least three characters and makes the creator its owner', async () => {
    const { client, user } = await signedInUser(t.app);
    const short = await client.post('/api/v1/workspace', { name: 'ab' });
    expect(short.statusCode).toBe(422);
    expect(short.json().errors.name).toBeDefined();

    const created = await client.post('/api/v1/workspace', { name: '  Marketing  ' });
    expect(created.json()).toMatchObject({ message: 'Created workspace', workspace: { name: 'Marketing', owner_id: user.id, members_count: 1 } });
    const workspace = await details(client, created.json().workspace.id);
    expect(workspace.members).toEqual([expect.objectContaining({ model_type: 'member', id: user.id, is_owner: true, role_id: null })]);
    expect(workspace.invites).toEqual([]);
  });

  it('keeps to the count of workspaces.create, even when two creations race', async () => {
    const { client } = await signedInUser(t.app);
    await servicesOf(t.app)
      .db.kysely.updateTable('role_permissions')
      .set({ restrictions: JSON.stringify([{ name: 'count', value: 1 }]) })
      .where('role_id', '=', (await servicesOf(t.app).db.kysely.selectFrom('roles').select('id').where('name', '=', 'users').executeTakeFirstOrThrow()).id)
      .where(
        'permission_id',
        '=',
        (await servicesOf(t.app).db.kysely.selectFrom('permissions').select('id').where('name', '=', 'workspaces.create').executeTakeFirstOrThrow()).id,
      )
      .execute();
    try {
      const answers = await Promise.all([client.post('/api/v1/workspace', { name: 'First' }), client.post('/api/v1/workspace', { name: 'Second' })]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 403]);
      expect(answers.find((a) => a.statusCode === 403)!.json().message).toBe('You have reached the maximum number of workspaces you can create.');
    } finally {
      await servicesOf(t.app)
        .db.kysely.updateTable('role_permissions')
        .set({ restrictions: JSON.stringify([{ name: 'count', value: null }]) })
        .where('restrictions', 'like', '%"count"%')
        .execute();
    }
  });

  it('mails an invite link to sign in (existing account) or register (new address) that leads back to the drive', async () => {
    const owner = await signedInUser(t.app);
    const existing = await signedInUser(t.app);
    const id = await createWorkspace(owner.client);
    const newcomer = `new-${Date.now()}@example.com`;
    const response = await owner.client.post(`/api/v1/workspace/${id}/invite`, {
      emails: [existing.user.email.toUpperCase(), newcomer, owner.user.email],
      roleId: roles.viewer,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().message).toBe('Invite sent');
    // The owner is a member already: no invite for them.
    expect(response.json().workspace.invites.map((row: MemberRow) => [row.email, row.model_type, row.role_name])).toEqual([
      [existing.user.email, 'invite', 'Workspace Viewer'],
      [newcomer, 'invite', 'Workspace Viewer'],
    ]);
    await servicesOf(t.app).jobs.idle();
    expect(await mailsTo(t.dataDir, owner.user.email)).toHaveLength(0);

    const [toExisting] = await mailsTo(t.dataDir, existing.user.email);
    const link = new URL(toExisting!.text.match(/https?:\/\/\S*\/workspace\/join\/\S*/)![0].replace(/&amp;/g, '&'));
    expect(link.pathname).toBe('/workspace/join/login');
    expect(link.searchParams.get('email')).toBe(existing.user.email);
    expect(link.searchParams.get('redirect')).toMatch(/^\/drive\?invite=[\w-]{32}$/);
    expect((await mailsTo(t.dataDir, newcomer))[0]!.text).toContain('/workspace/join/register?');
  });

  it('refuses a role that is not a workspace role', async () => {
    const owner = await signedInUser(t.app);
    const id = await createWorkspace(owner.client);
    const siteRole = await servicesOf(t.app).db.kysely.selectFrom('roles').select('id').where('name', '=', 'admin').executeTakeFirstOrThrow();
    const response = await owner.client.post(`/api/v1/workspace/${id}/invite`, { emails: ['x@example.com'], roleId: siteRole.id });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors.roleId).toEqual(['The selected role is not a workspace role.']);
    const bad = await owner.client.post(`/api/v1/workspace/${id}/invite`, { emails: ['not an email'], roleId: roles.viewer });
    expect(bad.statusCode).toBe(422);
  });

  it('lets only the invited account join, once, before the invite expires', async () => {
    const owner = await signedInUser(t.app);
    const invitee = await signedInUser(t.app);
    const other = await signedInUser(t.app);
    const id = await createWorkspace(owner.client, 'Joiners');
    await owner.client.post(`/api/v1/workspace/${id}/invite`, { emails: [invitee.user.email], roleId: roles.editor });
    const inviteId = await inviteIdFromMail(t.dataDir, invitee.user.email);

    const wrong = await other.client.get(`/api/v1/workspace/join/${inviteId}`);
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().message).toBe('This invite was sent to another email address.');
    expect((await invitee.client.get('/api/v1/workspace/join/no-such-invite')).statusCode).toBe(404);

    const joined = await invitee.client.get(`/api/v1/workspace/join/${inviteId}`);
    expect(joined.json()).toMatchObject({ message: 'Joined workspace', workspace: { id, name: 'Joiners', members_count: 2 } });
    const again = await invitee.client.get(`/api/v1/workspace/join/${inviteId}`);
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe('This invite is no longer valid');
    const row = (await details(owner.client, id)).members!.find((m) => m.id === invitee.user.id)!;
    expect(row).toMatchObject({ role_name: 'Workspace Editor', is_owner: false });
    expect(row.permissions.map((p) => p.name)).toContain('files.create');

    // An expired invite is refused and no longer listed.
    const late = await signedInUser(t.app);
    await owner.client.post(`/api/v1/workspace/${id}/invite`, { emails: [late.user.email], roleId: roles.viewer });
    const lateId = await inviteIdFromMail(t.dataDir, late.user.email);
    await servicesOf(t.app).db.kysely.updateTable('workspace_invites').set({ expires_at: nowIso() }).where('id', '=', lateId).execute();
    expect((await late.client.get(`/api/v1/workspace/join/${lateId}`)).statusCode).toBe(404);
    expect((await details(owner.client, id)).invites).toEqual([]);
  });

  it('resends an invite with its expiry renewed; declining or revoking removes it', async () => {
    const owner = await signedInUser(t.app);
    const invitee = await signedInUser(t.app);
    const id = await createWorkspace(owner.client);
    await owner.client.post(`/api/v1/workspace/${id}/invite`, { emails: [invitee.user.email], roleId: roles.viewer });
    const inviteId = await inviteIdFromMail(t.dataDir, invitee.user.email);
    await servicesOf(t.app)
      .db.kysely.updateTable('workspace_invites')
      .set({ expires_at: new Date(Date.now() + 60_000).toISOString() })
      .execute();

    const resent = await owner.client.post(`/api/v1/workspace/${id}/${inviteId}/resend`);
    expect(resent.json()).toEqual({ message: 'Invite sent' });
    await servicesOf(t.app).jobs.idle();
    expect(await mailsTo(t.dataDir, invitee.user.email)).toHaveLength(2);
    const renewed = await servicesOf(t.app).db.kysely.selectFrom('workspace_invites').select('expires_at').where('id', '=', inviteId).executeTakeFirstOrThrow();
    expect(Date.parse(renewed.expires_at) - Date.now()).toBeGreaterThan(2 * 24 * 3600_000);

    const declined = await invitee.client.request('DELETE', `/api/v1/workspace/invite/${inviteId}`);
    expect(declined.json()).toEqual({ message: 'Declined workspace invitation' });
    expect((await invitee.client.get(`/api/v1/workspace/join/${inviteId}`)).statusCode).toBe(404);

    await owner.client.post(`/api/v1/workspace/${id}/invite`, { emails: ['someone@example.com'], roleId: roles.viewer });
    const revokeId = await inviteIdFromMail(t.dataDir, 'someone@example.com');
    const stranger = await signedInUser(t.app);
    expect((await stranger.client.request('DELETE', `/api/v1/workspace/invite/${revokeId}`)).statusCode).toBe(404);
    expect((await owner.client.request('DELETE', `/api/v1/workspace/invite/${revokeId}`)).statusCode).toBe(200);
    expect((await details(owner.client, id)).invites).toEqual([]);
  });

  it("changes a member's or an invite's role only within the workspace, never the owner's or one's own", async () => {
    const owner = await signedInUser(t.app);
    const admin = await signedInUser(t.app);
    const editor = await signedInUser(t.app);
    const id = await createWorkspace(owner.client);
    const adminMemberId = await addMember(t.app, t.dataDir, owner.client, id, admin, roles.admin);
    const editorMemberId = await addMember(t.app, t.dataDir, owner.client, id, editor, roles.editor);
    const ownerMemberId = (await details(owner.client, id)).members!.find((m) => m.is_owner)!.member_id!;

    const changed = await admin.client.post(`/api/v1/workspace/${id}/member/${editorMemberId}/change-role`, { roleId: roles.viewer });
    expect(changed.json()).toEqual({ message: 'Role changed' });
    expect((await details(owner.client, id)).members!.find((m) => m.id === editor.user.id)!.role_name).toBe('Workspace Viewer');

    expect((await admin.client.post(`/api/v1/workspace/${id}/member/${ownerMemberId}/change-role`, { roleId: roles.viewer })).statusCode).toBe(403);
    expect((await admin.client.post(`/api/v1/workspace/${id}/member/${adminMemberId}/change-role`, { roleId: roles.viewer })).statusCode).toBe(403);
    expect((await editor.client.post(`/api/v1/workspace/${id}/member/${adminMemberId}/change-role`, { roleId: roles.viewer })).statusCode).toBe(403);

    // A member id of another workspace is not found here, even for its owner.
    const otherOwner = await signedInUser(t.app);
    const otherId = await createWorkspace(otherOwner.client);
    const otherMember = await signedInUser(t.app);
    const foreignMemberId = await addMember(t.app, t.dataDir, otherOwner.client, otherId, otherMember, roles.viewer);
    expect((await owner.client.post(`/api/v1/workspace/${id}/member/${foreignMemberId}/change-role`, { roleId: roles.admin })).statusCode).toBe(404);

    await owner.client.post(`/api/v1/workspace/${id}/invite`, { emails: ['pending@example.com'], roleId: roles.viewer });
    const inviteId = await inviteIdFromMail(t.dataDir, 'pending@example.com');
    expect((await owner.client.post(`/api/v1/workspace/${id}/invite/${inviteId}/change-role`, { roleId: roles.editor })).statusCode).toBe(200);
    expect((await details(owner.client, id)).invites![0]!.role_name).toBe('Workspace Editor');
    expect((await otherOwner.client.post(`/api/v1/workspace/${otherId}/invite/${inviteId}/change-role`, { roleId: roles.admin })).statusCode).toBe(404);
  });

  it('lets members leave and admins remove others; the owner is never removed and cannot leave', async () => {
    const owner = await signedInUser(t.app);
    const admin = await signedInUser(t.app);
    const viewer = await signedInUser(t.app);
    const leaver = await signedInUser(t.app);
    const id = await createWorkspace(owner.client);
    await addMember(t.app, t.dataDir, owner.client, id, admin, roles.admin);
    const viewerMemberId = await addMember(t.app, t.dataDir, owner.client, id, viewer, roles.viewer);
    const leaverMemberId = await addMember(t.app, t.dataDir, owner.client, id, leaver, roles.viewer);
    const ownerMemberId = (await details(owner.client, id)).members!.find((m) => m.is_owner)!.member_id!;

    expect((await viewer.client.request('DELETE', `/api/v1/workspace/${id}/member/${leaverMemberId}`)).statusCode).toBe(403);
    expect((await admin.client.request('DELETE', `/api/v1/workspace/${id}/member/${ownerMemberId}`)).statusCode).toBe(403);
    expect((await owner.client.request('DELETE', `/api/v1/workspace/${id}/member/${ownerMemberId}`)).statusCode).toBe(403);

    const left = await leaver.client.request('DELETE', `/api/v1/workspace/${id}/member/${leaverMemberId}`);
    expect(left.json()).toEqual({ message: 'Left workspace' });
    const removed = await admin.client.request('DELETE', `/api/v1/workspace/${id}/member/${viewerMemberId}`);
    expect(removed.json()).toEqual({ message: 'Removed member' });
    expect((await viewer.client.get(`/api/v1/workspace/${id}`)).statusCode).toBe(404);
    expect((await details(owner.client, id)).members!.map((m) => m.id)).toEqual([owner.user.id, admin.user.id]);
  });

  it('lets only the owner rename or delete a workspace', async () => {
    const owner = await signedInUser(t.app);
    const admin = await signedInUser(t.app);
    const id = await createWorkspace(owner.client);
    await addMember(t.app, t.dataDir, owner.client, id, admin, roles.admin);

    expect((await admin.client.request('PUT', `/api/v1/workspace/${id}`, { body: { name: 'Taken over' } })).statusCode).toBe(403);
    expect((await admin.client.request('DELETE', `/api/v1/workspace/${id}`)).statusCode).toBe(403);
    const renamed = await owner.client.request('PUT', `/api/v1/workspace/${id}`, { body: { name: 'Renamed' } });
    expect(renamed.json()).toMatchObject({ message: 'Updated workspace', workspace: { id, name: 'Renamed' } });
    const deleted = await owner.client.request('DELETE', `/api/v1/workspace/${id}`);
    expect(deleted.json()).toEqual({ message: 'Deleted workspace' });
    expect((await admin.client.get(`/api/v1/workspace/${id}`)).statusCode).toBe(404);
    expect((await owner.client.get(`/api/v1/workspace/${id}`)).statusCode).toBe(404);
  });
});
