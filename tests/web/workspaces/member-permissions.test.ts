import { describe, expect, it } from 'vitest';
import type { MemberRow } from '../../../src/features/workspaces/api/types';
import { canRemove, isOwner, memberPermissions, roleIsEditable } from '../../../src/features/workspaces/lib/member-permissions';
import { afterLosing, reconcileActive } from '../../../src/features/workspaces/lib/active';

const row = (over: Partial<MemberRow>): MemberRow => ({
  model_type: 'member',
  id: 0,
  member_id: 0,
  display_name: 'x',
  email: 'x@example.com',
  avatar: null,
  role_id: 2,
  role_name: 'Editor',
  is_owner: false,
  permissions: [],
  ...over,
});

const owner = row({ id: 1, member_id: 11, is_owner: true, role_name: 'Workspace Admin' });
const admin = row({
  id: 2,
  member_id: 12,
  permissions: [{ name: 'workspace_members.invite' }, { name: 'workspace_members.update' }, { name: 'workspace_members.delete' }],
});
const inviter = row({ id: 3, member_id: 13, permissions: [{ name: 'workspace_members.invite' }] });
const viewer = row({ id: 4, member_id: 14, permissions: [] });
const invite = row({ model_type: 'invite', id: 'inv-1', member_id: undefined, role_name: 'Viewer' });
const workspace = { owner_id: 1, members: [owner, admin, inviter, viewer] };

describe('workspace member permissions (spec §6)', () => {
  it('derive from one’s own membership: the owner may do everything, others what their role holds', () => {
    expect(memberPermissions(workspace, 1)).toEqual({ update: true, invite: true, delete: true });
    expect(memberPermissions(workspace, 2)).toEqual({ update: true, invite: true, delete: true });
    expect(memberPermissions(workspace, 3)).toEqual({ update: false, invite: true, delete: false });
    expect(memberPermissions(workspace, 4)).toEqual({ update: false, invite: false, delete: false });
    expect(memberPermissions(workspace, 99)).toEqual({ update: false, invite: false, delete: false });
  });

  it('show the owner’s role and one’s own as plain text, others as a dropdown only with update permission', () => {
    const adminPerms = memberPermissions(workspace, 2);
    expect(roleIsEditable(owner, 2, adminPerms)).toBe(false);
    expect(roleIsEditable(admin, 2, adminPerms)).toBe(false);
    expect(roleIsEditable(viewer, 2, adminPerms)).toBe(true);
    expect(roleIsEditable(invite, 2, adminPerms)).toBe(true);
    expect(roleIsEditable(viewer, 3, memberPermissions(workspace, 3))).toBe(false);
  });

  it('let only holders of delete permission remove others, never the owner or oneself', () => {
    expect(canRemove(viewer, 1, memberPermissions(workspace, 1))).toBe(true);
    expect(canRemove(owner, 2, memberPermissions(workspace, 2))).toBe(false);
    expect(canRemove(admin, 2, memberPermissions(workspace, 2))).toBe(false);
    expect(canRemove(viewer, 3, memberPermissions(workspace, 3))).toBe(false);
  });

  it('give Rename and Delete only to the owner', () => {
    expect(isOwner(workspace, 1)).toBe(true);
    expect(isOwner(workspace, 2)).toBe(false);
  });
});

describe('the active workspace (spec §4)', () => {
  it('falls back to Private when the server’s list no longer has it, but not on a cached list', () => {
    expect(reconcileActive(5, [{ id: 0 }, { id: 5 }], true)).toBe(5);
    expect(reconcileActive(5, [{ id: 0 }], true)).toBe(0);
    expect(reconcileActive(5, [{ id: 0 }], false)).toBe(5);
  });

  it('switches to Private after leaving, removal or deletion of the active one only', () => {
    expect(afterLosing(5, 5)).toBe(0);
    expect(afterLosing(5, 6)).toBe(5);
  });
});
