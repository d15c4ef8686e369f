import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser } from '../support/drive-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createWorkspace, workspaceRoles } from './support.js';

// Re-inviting an address renews its one invite (issue 32 follow-up: "an invited address shown twice
// in the members list after re-inviting"). Not reproduced on the server: this pins the behaviour
// for the ways a second invite can arrive, so a regression shows here.

interface Row {
  model_type: 'member' | 'invite';
  email: string;
  role_id: number | null;
}

describe('re-inviting an address', () => {
  let t: TestApp;
  let roles: Awaited<ReturnType<typeof workspaceRoles>>;
  beforeAll(async () => {
    t = await createTestApp();
    roles = await workspaceRoles((await signedInUser(t.app)).client);
  });
  afterAll(() => t.close());

  it('keeps one invite row: again, in other letter case, and twice at once; the newest role wins', async () => {
    const owner = await signedInUser(t.app);
    const invitee = await signedInUser(t.app);
    const id = await createWorkspace(owner.client);
    const invite = (emails: string[], roleId: number) => owner.client.post(`/api/v1/workspace/${id}/invite`, { emails, roleId });
    const invitesIn = (body: { workspace: { invites: Row[] } }) => body.workspace.invites.filter((row) => row.email === invitee.user.email.toLowerCase());

    expect(invitesIn((await invite([invitee.user.email], roles.viewer)).json())).toHaveLength(1);
    const again = await invite([invitee.user.email.toUpperCase(), invitee.user.email], roles.editor);
    expect(again.statusCode, again.body).toBe(200);
    expect(invitesIn(again.json())).toEqual([expect.objectContaining({ role_id: roles.editor })]);

    const both = await Promise.all([invite([invitee.user.email], roles.viewer), invite([invitee.user.email], roles.viewer)]);
    for (const response of both) expect(response.statusCode, response.body).toBe(200);
    const listed = await owner.client.get(`/api/v1/workspace/${id}?with=members,invites`);
    const rows = [...(listed.json().workspace.members as Row[]), ...(listed.json().workspace.invites as Row[])];
    expect(rows.filter((row) => row.email.toLowerCase() === invitee.user.email.toLowerCase())).toHaveLength(1);
  });
});
