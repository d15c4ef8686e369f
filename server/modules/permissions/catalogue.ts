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
  // The admin area (issue 17): each admin call is guarded by one of these; `admin` grants them all.
  { name: 'reports.view', group: 'admin', display_name: 'View the dashboard', description: 'See the admin dashboard: counts, space, charts and warnings.' },
  { name: 'users.view', group: 'users', display_name: 'View users', description: 'List and open user accounts in the admin area.' },
  { name: 'users.create', group: 'users', display_name: 'Create users', description: 'Create user accounts.' },
  {
    name: 'users.update',
    group: 'users',
    display_name: 'Update users',
    description: 'Edit accounts, roles and permissions; suspend, verify, send password resets.',
  },
  { name: 'users.delete', group: 'users', display_name: 'Delete users', description: 'Delete user accounts and their files.' },
  { name: 'users.impersonate', group: 'users', display_name: 'Sign in as users', description: 'Sign in as another user for support (recorded).' },
  { name: 'roles.view', group: 'roles', display_name: 'View roles', description: 'List roles and their permissions.' },
  { name: 'roles.update', group: 'roles', display_name: 'Manage roles', description: 'Create, edit and delete roles.' },
  { name: 'settings.view', group: 'settings', display_name: 'View settings', description: 'Read the site settings (secrets stay hidden).' },
  { name: 'settings.update', group: 'settings', display_name: 'Update settings', description: 'Change the site settings.' },
  { name: 'all_files.view', group: 'admin', display_name: 'View all files', description: 'List every file in the system.' },
  { name: 'all_files.delete', group: 'admin', display_name: 'Delete any file', description: 'Delete any file or folder forever.' },
  { name: 'all_files.download', group: 'admin', display_name: 'Download any file', description: 'Download any file for support (recorded).' },
  { name: 'all_workspaces.view', group: 'admin', display_name: 'View all workspaces', description: 'List every workspace.' },
  { name: 'all_workspaces.delete', group: 'admin', display_name: 'Delete any workspace', description: 'Delete any workspace.' },
  { name: 'activity.view', group: 'admin', display_name: 'View the admin log', description: 'Read the log of admin actions.' },
  // Plans and subscriptions in the admin area (issue 17, section 5).
  { name: 'plans.view', group: 'plans', display_name: 'View plans', description: 'List plans, their prices and subscriber counts.' },
  { name: 'plans.create', group: 'plans', display_name: 'Create plans', description: 'Create plans (in Stripe too when it is configured).' },
  { name: 'plans.update', group: 'plans', display_name: 'Update plans', description: 'Edit, hide and recommend plans; add and remove prices.' },
  { name: 'subscriptions.view', group: 'plans', display_name: 'View subscriptions', description: 'List every subscription with its user and plan.' },
  { name: 'subscriptions.update', group: 'plans', display_name: 'Cancel subscriptions', description: 'Cancel subscriptions (in Stripe too).' },
  // Localizations, themes and the appearance editor (issue 18).
  { name: 'localizations.view', group: 'localizations', display_name: 'View localizations', description: 'List languages and read their lines.' },
  {
    name: 'localizations.update',
    group: 'localizations',
    display_name: 'Manage localizations',
    description: 'Add, rename and delete languages; translate, import and export lines.',
  },
  { name: 'themes.view', group: 'themes', display_name: 'View themes', description: 'List the site themes.' },
  { name: 'themes.update', group: 'themes', display_name: 'Manage themes', description: 'Create, edit and delete themes.' },
  {
    name: 'appearance.update',
    group: 'appearance',
    display_name: 'Edit appearance',
    description: 'Branding, logos, theme settings and custom code (not sanitised).',
  },
  // Custom pages and menus (issue 18).
  { name: 'custom_pages.view', group: 'custom_pages', display_name: 'View custom pages', description: 'List custom pages in the admin area.' },
  { name: 'custom_pages.create', group: 'custom_pages', display_name: 'Create custom pages', description: 'Create custom pages.' },
  { name: 'custom_pages.update', group: 'custom_pages', display_name: 'Edit custom pages', description: 'Edit custom pages and their SEO fields.' },
  { name: 'custom_pages.delete', group: 'custom_pages', display_name: 'Delete custom pages', description: 'Delete custom pages.' },
  { name: 'menus.view', group: 'menus', display_name: 'View menus', description: 'See the menus and their items in the admin area.' },
  { name: 'menus.update', group: 'menus', display_name: 'Edit menus', description: 'Create, edit, reorder and delete menus and their items.' },
];
