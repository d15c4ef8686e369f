import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/index.js';
import { lockUserRow } from '../../db/locks.js';
import type { Database, WorkspaceRow } from '../../db/types.js';
import { Forbidden, NotFound, ValidationError } from '../../lib/errors.js';
import { addMs, nowIso } from '../../lib/time.js';
import { randomToken } from '../../lib/tokens.js';
import { workspaceInviteMessage } from '../../mail/templates.js';
import type { MailMessage } from '../../mail/mailer.js';
import { userIdOf, type Actor } from '../access/actor.js';
import { requireWorkspace } from '../access/require-workspace.js';
import { restriction } from '../permissions/policy.js';
import { displayName } from '../users/presenter.js';
import type { InvitedNotice } from './invitation-notification.js';
import type { WorkspacesRepository } from './repository.js';
import type { WorkspaceOut, WorkspaceRelation } from './schemas.js';

/** Spec §9: the personal workspace, always first in the list. */
export const DEFAULT_WORKSPACE_ID = 0;
export const INVITE_TTL_DAYS = 3;
const INVITE_TTL_MS = INVITE_TTL_DAYS * 24 * 60 * 60 * 1000;

export const INVITE_NOT_VALID = 'This invite is no longer valid';
export const INVITE_NOT_FOUND = 'This invite does not exist.';
export const MEMBER_NOT_FOUND = 'This member does not exist.';

export interface WorkspaceDeps {
  findUser(id: number): Promise<{ id: number; email: string; first_name: string | null; last_name: string | null } | undefined>;
  findUserIdByEmail(email: string): Promise<number | undefined>;
  /** Queues the invite mail (a job, retried there): a slow mail server never holds up the invite. */
  sendMail(message: MailMessage): Promise<void>;
  siteName(): Promise<string>;
  /** The site's public address (read on use: an admin may change it). */
  appUrl: () => Promise<string>;
  /** Inside the deletion's transaction: the workspace's entries go to the owner's trash. */
  trashWorkspace(trx: Kysely<Database>, workspaceId: number): Promise<number>;
  /** An invitee with an account: the notification (bell, and email and push as they chose). */
  notifyInvited(notice: InvitedNotice): Promise<string | null>;
  /** Counts invite mails a user sends (429 past the hourly allowance): invites must not become a spam relay. */
  countInvites(userId: number, emails: number): Promise<void>;
}

/**
 * Team workspaces (spec §1, §4, §7). Every decision goes through the access
 * policy (requireWorkspace); this class only carries them out.
 *
 * A workspace's entries all belong to its owner, who pays for them, so
 * "leaving transfers the user's resources to the owner" holds by construction:
 * what a member created stays in the workspace, already the owner's.
 */
export class WorkspacesService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    private readonly repo: WorkspacesRepository,
    private readonly deps: WorkspaceDeps,
  ) {}

  async list(actor: Actor): Promise<WorkspaceOut[]> {
    const userId = userIdOf(actor);
    const rows = await this.repo.listFor(userId);
    const personal: WorkspaceOut = { id: DEFAULT_WORKSPACE_ID, name: 'Default', default: true, owner_id: userId, members_count: 1 };
    return [personal, ...rows.map((row) => this.present(row, Number(row.members_count ?? 0)))];
  }

  async get(actor: Actor, id: number, relations: readonly WorkspaceRelation[] = []): Promise<WorkspaceOut> {
    await requireWorkspace(this.db, actor, 'workspace.view', id);
    return this.load(id, relations);
  }

  async create(actor: Actor, name: string): Promise<WorkspaceOut> {
    const userId = userIdOf(actor);
    const limit = Number(restriction(actor, 'workspaces.create', 'count') ?? NaN);
    const id = await this.db.transaction().execute(async (trx) => {
      // Two tabs creating at once must not both pass the count.
      await lockUserRow(trx, this.dialect, userId);
      if (Number.isFinite(limit) && limit > 0 && (await this.repo.ownedCount(userId, trx)) >= limit) {
        throw Forbidden('You have reached the maximum number of workspaces you can create.');
      }
      return this.repo.create(trx, userId, name);
    });
    return this.load(id);
  }

  async rename(actor: Actor, id: number, name: string): Promise<WorkspaceOut> {
    await requireWorkspace(this.db, actor, 'workspace.update', id);
    await this.repo.rename(id, name);
    return this.load(id);
  }

  /** Its entries go to the owner's trash (restorable there); members and invites go with it. */
  async delete(actor: Actor, id: number): Promise<void> {
    await requireWorkspace(this.db, actor, 'workspace.delete', id);
    await this.db.transaction().execute(async (trx) => {
      await this.deps.trashWorkspace(trx, id);
      await this.repo.delete(trx, id);
    });
  }

  /** Invites each address not already a member; inviting an address again renews its invite. */
  async invite(actor: Actor, id: number, emails: string[], roleId: number): Promise<WorkspaceOut> {
    await requireWorkspace(this.db, actor, 'members.invite', id);
    await this.requireRole(roleId);
    const members = new Set((await this.repo.memberEmails(id)).map((row) => row.email.toLowerCase()));
    await this.deps.countInvites(userIdOf(actor), emails.filter((address) => !members.has(address)).length);
    const workspace = (await this.repo.find(id))!;
    const inviter = await this.deps.findUser(userIdOf(actor));
    for (const email of emails.filter((address) => !members.has(address))) {
      const inviteId = randomToken(24);
      await this.repo.upsertInvite({ id: inviteId, workspaceId: id, email, roleId, invitedBy: userIdOf(actor), expiresAt: addMs(nowIso(), INVITE_TTL_MS) });
      await this.sendInvite(workspace, inviteId, email, inviter);
    }
    return this.load(id, ['members', 'invites']);
  }

  async resend(actor: Actor, id: number, inviteId: string): Promise<void> {
    await requireWorkspace(this.db, actor, 'members.invite', id);
    const invite = await this.repo.findInvite(inviteId);
    if (!invite || invite.workspace_id !== id) throw NotFound(INVITE_NOT_FOUND);
    await this.deps.countInvites(userIdOf(actor), 1);
    await this.repo.renewInvite(invite.id, addMs(nowIso(), INVITE_TTL_MS));
    await this.sendInvite((await this.repo.find(id))!, invite.id, invite.email, await this.deps.findUser(userIdOf(actor)));
  }

  /**
   * The member or invite is looked up within this workspace only (never by id
   * alone), and the role must be a workspace role. Nobody changes the owner's
   * role or their own (a member who may change roles could otherwise raise
   * themselves).
   */
  async changeRole(actor: Actor, id: number, modelType: 'member' | 'invite', targetId: string, roleId: number): Promise<void> {
    await requireWorkspace(this.db, actor, 'members.update', id);
    await this.requireRole(roleId);
    if (modelType === 'invite') {
      const invite = await this.repo.findInvite(targetId);
      if (!invite || invite.workspace_id !== id) throw NotFound(INVITE_NOT_FOUND);
      await this.repo.setInviteRole(invite.id, roleId);
      return;
    }
    const member = /^\d+$/.test(targetId) ? await this.repo.findMember(id, Number(targetId)) : undefined;
    if (!member) throw NotFound(MEMBER_NOT_FOUND);
    if (member.is_owner) throw Forbidden("The workspace owner's role cannot be changed.");
    if (member.user_id === userIdOf(actor)) throw Forbidden('You cannot change your own role.');
    await this.repo.setMemberRole(member.id, roleId);
  }

  /** Removing oneself is leaving (any member but the owner); removing others needs the permission. Answers whether it was oneself. */
  async removeMember(actor: Actor, id: number, memberId: number): Promise<{ left: boolean }> {
    const own = await requireWorkspace(this.db, actor, 'workspace.view', id);
    if (own.memberId === memberId) {
      await requireWorkspace(this.db, actor, 'workspace.leave', id);
      await this.repo.removeMember(memberId);
      return { left: true };
    }
    await requireWorkspace(this.db, actor, 'members.delete', id);
    const member = await this.repo.findMember(id, memberId);
    if (!member) throw NotFound(MEMBER_NOT_FOUND);
    if (member.is_owner) throw Forbidden('The workspace owner cannot be removed.');
    await this.repo.removeMember(member.id);
    return { left: false };
  }

  /**
   * Accepting an invite link: it must be open (not expired) and addressed to
   * the signed-in account's email, so a forwarded or leaked link lets nobody
   * else in.
   */
  /** The workspace and inviter an invite link names, for whoever holds the link (it is unguessable). */
  async invitePreview(inviteId: string): Promise<{ workspace: { id: number; name: string }; inviter: string | null }> {
    const invite = await this.repo.findInvite(inviteId);
    if (!invite || invite.expires_at <= nowIso()) throw NotFound(INVITE_NOT_VALID);
    const workspace = await this.repo.find(invite.workspace_id);
    if (!workspace) throw NotFound(INVITE_NOT_VALID);
    const inviter = invite.invited_by === null ? undefined : await this.deps.findUser(invite.invited_by);
    const name = inviter ? [inviter.first_name, inviter.last_name].filter(Boolean).join(' ') || inviter.email : null;
    return { workspace: { id: workspace.id, name: workspace.name }, inviter: name };
  }

  async join(actor: Actor, inviteId: string): Promise<WorkspaceOut> {
    const userId = userIdOf(actor);
    const invite = await this.repo.findInvite(inviteId);
    if (!invite || invite.expires_at <= nowIso()) throw NotFound(INVITE_NOT_VALID);
    const user = await this.deps.findUser(userId);
    if (!user || user.email.toLowerCase() !== invite.email) throw Forbidden('This invite was sent to another email address.');
    await this.db.transaction().execute(async (trx) => {
      await this.repo.addMember(trx, invite.workspace_id, userId, invite.role_id);
      await this.repo.deleteInvite(invite.id, trx);
    });
    return this.load(invite.workspace_id);
  }

  /** The invitee declines; a member who may remove members revokes it (spec §7: it also removes an invite row). */
  async decline(actor: Actor, inviteId: string): Promise<void> {
    const invite = await this.repo.findInvite(inviteId);
    if (!invite) throw NotFound(INVITE_NOT_VALID);
    const user = await this.deps.findUser(userIdOf(actor));
    if (user?.email.toLowerCase() !== invite.email) await requireWorkspace(this.db, actor, 'members.delete', invite.workspace_id);
    await this.repo.deleteInvite(invite.id);
  }

  roles() {
    return this.repo.workspaceRoles();
  }

  private async requireRole(roleId: number): Promise<void> {
    if (!(await this.repo.workspaceRole(roleId))) throw ValidationError.field('roleId', 'The selected role is not a workspace role.');
  }

  /**
   * An invitee with an account gets a notification, whose email channel (if
   * they keep it on) carries the invite mail; anyone else gets the mail to
   * register with the address prefilled. Either link lands on the drive,
   * which offers to join (src/features/workspaces/components/InvitePrompt.tsx).
   */
  private async sendInvite(workspace: WorkspaceRow, inviteId: string, email: string, inviter: Awaited<ReturnType<WorkspaceDeps['findUser']>>): Promise<void> {
    const userId = await this.deps.findUserIdByEmail(email);
    const query = new URLSearchParams({ email, redirect: `/drive?invite=${inviteId}` });
    const url = `${await this.deps.appUrl()}/workspace/join/${userId === undefined ? 'register' : 'login'}?${query.toString()}`;
    const inviterName = inviter ? displayName(inviter) : 'Someone';
    const mail = async (to: string) =>
      workspaceInviteMessage(to, await this.deps.siteName(), { inviterName, workspaceName: workspace.name, url, days: INVITE_TTL_DAYS });
    if (userId === undefined) await this.deps.sendMail(await mail(email));
    else await this.deps.notifyInvited({ userId, inviteId, inviterName, workspaceName: workspace.name, mail });
  }

  private async load(id: number, relations: readonly WorkspaceRelation[] = []): Promise<WorkspaceOut> {
    const row = await this.repo.find(id);
    if (!row) throw NotFound('This workspace does not exist.');
    const out = this.present(row, await this.repo.membersCount(id));
    if (relations.includes('members')) out.members = await this.repo.members(id);
    if (relations.includes('invites')) out.invites = await this.repo.invites(id);
    return out;
  }

  private present(row: Pick<WorkspaceRow, 'id' | 'name' | 'owner_id'>, membersCount: number): WorkspaceOut {
    return { id: row.id, name: row.name, default: false, owner_id: row.owner_id, members_count: membersCount };
  }
}
