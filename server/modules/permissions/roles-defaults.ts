/** Roles present on a new installation and the permissions each starts with. */
export interface RoleSeed {
  name: string;
  description: string;
  guests?: boolean;
  default?: boolean;
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
      { name: 'workspaces.create', restrictions: [{ name: 'count', value: null }] },
      { name: 'api.access' },
      { name: 'notifications.subscribe' },
    ],
  },
  { name: 'guests', description: 'Visitors who are not signed in.', guests: true, permissions: [] },
];
