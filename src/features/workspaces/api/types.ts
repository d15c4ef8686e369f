// The shapes of spec §3 as the workspace calls answer them.

export interface WorkspacePermission {
  name: string;
}

/** Spec §3 "Member or invite row". */
export interface MemberRow {
  model_type: 'member' | 'invite';
  /** The user's id for a member, the invite's id for an invite. */
  id: number | string;
  /** The membership's id (members only): what role changes and removal name. */
  member_id?: number;
  display_name: string;
  email: string;
  avatar: string | null;
  role_id: number | null;
  role_name: string | null;
  is_owner: boolean;
  permissions: WorkspacePermission[];
}

/** Spec §3 "Workspace". */
export interface Workspace {
  id: number;
  name: string;
  default: boolean;
  owner_id: number | null;
  members_count: number;
  members?: MemberRow[];
  invites?: MemberRow[];
}

/** Spec §3 "Workspace role". */
export interface WorkspaceRole {
  id: number;
  name: string;
  description: string | null;
}
