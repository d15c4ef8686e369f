import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { TestClient } from '../support/client.js';
import type { CreatedUser } from '../support/factories.js';
import { linkFromMail, mailsTo } from '../support/mail.js';

export interface WorkspaceRoleRow {
  id: number;
  name: string;
}

export async function workspaceRoles(client: TestClient): Promise<Record<'admin' | 'editor' | 'viewer', number>> {
  const response = await client.get('/api/v1/workspace-roles');
  expect(response.statusCode).toBe(200);
  const roles = (response.json() as { workspaceRoles: WorkspaceRoleRow[] }).workspaceRoles;
  const id = (name: string) => roles.find((role) => role.name === name)!.id;
  return { admin: id('Workspace Admin'), editor: id('Workspace Editor'), viewer: id('Workspace Viewer') };
}

export async function createWorkspace(client: TestClient, name = 'Team space'): Promise<number> {
  const response = await client.post('/api/v1/workspace', { name });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { workspace: { id: number } }).workspace.id;
}

/** The invite id from the newest invite mail to `email` (the link's redirect carries it). */
export async function inviteIdFromMail(dataDir: string, email: string): Promise<string> {
  // An invitee with an account gets the mail through their notification's email channel, in the background.
  for (const deadline = Date.now() + 5000; (await mailsTo(dataDir, email)).length === 0 && Date.now() < deadline;) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const link = await linkFromMail(dataDir, email, '/workspace/join/');
  const redirect = new URL(link.searchParams.get('redirect')!, 'http://x');
  return redirect.searchParams.get('invite')!;
}

/** Invites `member` with the role and has them join through the mailed link. */
export async function addMember(
  app: FastifyInstance,
  dataDir: string,
  owner: TestClient,
  workspaceId: number,
  member: { user: CreatedUser; client: TestClient },
  roleId: number,
) {
  const invited = await owner.post(`/api/v1/workspace/${workspaceId}/invite`, { emails: [member.user.email], roleId });
  expect(invited.statusCode, invited.body).toBe(200);
  const inviteId = await inviteIdFromMail(dataDir, member.user.email);
  const joined = await member.client.get(`/api/v1/workspace/join/${inviteId}`);
  expect(joined.statusCode, joined.body).toBe(200);
  const details = await owner.get(`/api/v1/workspace/${workspaceId}?with=members`);
  const rows = (details.json() as { workspace: { members: { id: number; member_id: number }[] } }).workspace.members;
  return rows.find((row) => row.id === member.user.id)!.member_id;
}
