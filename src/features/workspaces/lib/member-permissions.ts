import type { MemberRow, Workspace } from '../api/types';

// Spec §6: what the current user may do in a workspace derives from their own
// membership row. The server decides (its access policy); these only choose
// which controls to show, so a control never appears for a call that would be refused.

export interface MemberPermissions {
  update: boolean;
  invite: boolean;
  delete: boolean;
}

const NONE: MemberPermissions = { update: false, invite: false, delete: false };

export function ownMembership(workspace: Pick<Workspace, 'members'>, userId: number): MemberRow | undefined {
  return workspace.members?.find((row) => row.model_type === 'member' && Number(row.id) === userId);
}

export function memberPermissions(workspace: Pick<Workspace, 'members' | 'owner_id'>, userId: number): MemberPermissions {
  if (workspace.owner_id === userId) return { update: true, invite: true, delete: true };
  const own = ownMembership(workspace, userId);
  if (!own) return NONE;
  if (own.is_owner) return { update: true, invite: true, delete: true };
  const has = (name: string) => own.permissions.some((p) => p.name === name);
  return { update: has('workspace_members.update'), invite: has('workspace_members.invite'), delete: has('workspace_members.delete') };
}

export const isOwner = (workspace: Pick<Workspace, 'owner_id'>, userId: number): boolean => workspace.owner_id === userId;

/** The owner's role and one's own are plain text; others' roles are a dropdown for those who may update. */
export function roleIsEditable(row: MemberRow, userId: number, permissions: MemberPermissions): boolean {
  if (!permissions.update || row.is_owner) return false;
  return !(row.model_type === 'member' && Number(row.id) === userId);
}

/** Removing needs delete permission; the owner is never removed (they delete the workspace instead). */
export function canRemove(row: MemberRow, userId: number, permissions: MemberPermissions): boolean {
  if (row.is_owner) return false;
  if (row.model_type === 'member' && Number(row.id) === userId) return false;
  return permissions.delete;
}
