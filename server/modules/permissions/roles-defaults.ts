/** Roles present on a new installation and the permissions each starts with. */
export interface RoleSeed {
  name: string;
  description: string;
  guests?: boolean;
  default?: boolean;
  /** 'sitewide' (the default) or 'workspace': a role a workspace member holds there. */
  type?: 'sitewide' | 'workspace';
  permissions: { name: string; restrictions?: { name: string; value: string | number | boolean | null }[] }[];
}

export const defaultRoles: RoleSeed[] = [
  { name: 'admin', description: 'Site administrators: every permission.', permissions: [{ name: 'admin' }] },
  {
    name: 'users',
    description: 'Given to every registered user.',
    default: true,
    permissions: [
      { name: 'files.view' },
      { name: 'files.create' },
      { name: 'files.update' },
      { name: 'files.delete' },
      { name: 'files.download' },
      { name: 'files.share' },
      { name: 'workspaces.create', restrictions: [{ name: 'count', value: null }] },
      { name: 'api.access' },
      { name: 'notifications.subscribe' },
    ],
  },
  { name: 'guests', description: 'Visitors who are not signed in.', guests: true, permissions: [] },
];

const fileActions = (...names: string[]) => names.map((name) => ({ name: `files.${name}` }));

/**
 * The roles a workspace member can hold (spec §3 Workspace role). Their
 * `files.*` permissions are what the member may do to the workspace's entries;
 * `workspace_members.*` what they may do to its members. The owner holds no
 * role: they may do everything.
 */
export const workspaceRoles: RoleSeed[] = [
  {
    name: 'Workspace Admin',
    description: 'Manage files and members: invite, change roles and remove.',
    type: 'workspace',
    permissions: [
      ...fileActions('view', 'download', 'create', 'update', 'delete', 'share'),
      { name: 'workspace_members.invite' },
      { name: 'workspace_members.update' },
      { name: 'workspace_members.delete' },
    ],
  },
  {
    name: 'Workspace Editor',
    description: 'Upload, edit, move and delete files.',
    type: 'workspace',
    permissions: fileActions('view', 'download', 'create', 'update', 'delete'),
  },
  { name: 'Workspace Viewer', description: 'View and download files.', type: 'workspace', permissions: fileActions('view', 'download') },
];
