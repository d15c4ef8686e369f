import { ALL_ACTIONS, ENTRY_ACTIONS, type ActionSet, type EntryAction } from './actions.js';
import type { Decision } from './policy.js';

/** One user's membership of one workspace, loaded by memberships.repository. */
export interface Membership {
  workspaceId: number;
  /** The membership row's id: what role changes and removal name. */
  memberId: number;
  ownerId: number;
  isOwner: boolean;
  roleId: number | null;
  /** The role's permission names (files.*, workspace_members.*). */
  permissions: ReadonlySet<string>;
}

/**
 * What a caller may do to a workspace itself (spec §6). Entry actions inside
 * it come from `entryActions` through the workspace grant source.
 */
export type WorkspaceAction =
  | 'workspace.view'
  | 'workspace.update'
  | 'workspace.delete'
  | 'workspace.leave'
  | 'members.invite'
  | 'members.update'
  | 'members.delete'
  /** The workspace's activity page (issue 35): its admins, the owner and whoever may manage members. */
  | 'workspace.activity';

const MEMBER_PERMISSION: Partial<Record<WorkspaceAction, string>> = {
  'members.invite': 'workspace_members.invite',
  'members.update': 'workspace_members.update',
  'members.delete': 'workspace_members.delete',
  'workspace.activity': 'workspace_members.update',
};

/**
 * Pure, over a membership loaded beforehand. Not a member: 'not-found' (a
 * workspace's existence is not revealed to outsiders). Rename and delete are
 * the owner's alone; the owner cannot leave (they delete instead); member
 * management needs the owner or the matching permission of the member's role.
 */
export function decideWorkspace(action: WorkspaceAction, membership: Membership | undefined): Decision {
  if (!membership) return 'not-found';
  switch (action) {
    case 'workspace.view':
      return 'allow';
    case 'workspace.update':
    case 'workspace.delete':
      return membership.isOwner ? 'allow' : 'forbidden';
    case 'workspace.leave':
      return membership.isOwner ? 'forbidden' : 'allow';
    default: {
      const needed = MEMBER_PERMISSION[action];
      return membership.isOwner || (needed !== undefined && membership.permissions.has(needed)) ? 'allow' : 'forbidden';
    }
  }
}

/** What a member may do to the workspace's entries: everything for the owner, else their role's files.* permissions. */
export function entryActions(membership: Membership | undefined): ActionSet {
  if (!membership) return new Set();
  if (membership.isOwner) return ALL_ACTIONS;
  return new Set(ENTRY_ACTIONS.filter((action: EntryAction) => membership.permissions.has(action)));
}
