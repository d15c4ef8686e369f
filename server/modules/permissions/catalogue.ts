/** Permissions the product knows (spec §6), with the restrictions each may carry. */
export interface PermissionDefinition {
  name: string;
  group: string;
  display_name: string;
  description: string;
  restrictions?: { name: string; type: 'number' | 'bool'; description: string }[];
}

export const permissionCatalogue: PermissionDefinition[] = [
  { name: 'admin', group: 'admin', display_name: 'Super admin', description: 'Grants every permission.' },
  { name: 'admin.access', group: 'admin', display_name: 'Access admin area', description: 'Open the admin area.' },
  { name: 'api.access', group: 'api', display_name: 'Access API', description: 'Read the API documentation and create access tokens.' },
  {
    name: 'workspaces.create',
    group: 'workspaces',
    display_name: 'Create workspaces',
    description: 'Create team workspaces.',
    restrictions: [{ name: 'count', type: 'number', description: 'How many workspaces a user may create (empty: unlimited).' }],
  },
  { name: 'workspace_members.update', group: 'workspaces', display_name: 'Change member roles', description: 'Change the role of workspace members.' },
  { name: 'workspace_members.invite', group: 'workspaces', display_name: 'Invite members', description: 'Invite people to a workspace.' },
  { name: 'workspace_members.delete', group: 'workspaces', display_name: 'Remove members', description: 'Remove members from a workspace.' },
  { name: 'files.view', group: 'files', display_name: 'View files', description: 'Browse and preview files.' },
  {
    name: 'files.create',
    group: 'files',
    display_name: 'Upload files',
    description: 'Upload files and create folders.',
    restrictions: [{ name: 'max_space', type: 'number', description: 'Storage space in bytes (empty: the site default).' }],
  },
  { name: 'files.update', group: 'files', display_name: 'Update files', description: 'Rename, move and upload into folders.' },
  { name: 'files.delete', group: 'files', display_name: 'Delete files', description: 'Move files to trash and delete them.' },
  { name: 'files.download', group: 'files', display_name: 'Download files', description: 'Download files.' },
  { name: 'files.share', group: 'files', display_name: 'Share files', description: 'Share files and folders with people and by link.' },
  { name: 'notifications.subscribe', group: 'notifications', display_name: 'Notification preferences', description: 'Choose notification channels.' },
];
