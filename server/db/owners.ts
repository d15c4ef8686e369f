import type { Database } from './types.js';

/**
 * Which folder under server/ owns each table: the only place that may query
 * it. Other modules read an owner's table through what the owner exports (a
 * repository function, or an expression such as drive's `chargedBytes` for a
 * read model that joins), so a rule about a table lives in one place.
 * tests/server/foundation/table-owners.test.ts holds every query to this map;
 * docs/ARCHITECTURE.md shows it as a table.
 */
export const TABLE_OWNERS = {
  users: 'modules/users',
  roles: 'modules/users',
  permissions: 'modules/users',
  role_permissions: 'modules/users',
  user_permissions: 'modules/users',
  user_roles: 'modules/users',
  sessions: 'modules/auth',
  personal_access_tokens: 'modules/auth',
  user_tokens: 'modules/auth',
  user_totp: 'modules/auth',
  two_factor_recovery_codes: 'modules/auth',
  sign_in_challenges: 'modules/auth',
  two_factor_devices: 'modules/auth',
  passkeys: 'modules/auth',
  webauthn_challenges: 'modules/auth',
  social_profiles: 'modules/social',
  settings: 'modules/settings',
  localizations: 'modules/localizations',
  localization_lines: 'modules/localizations',
  menus: 'modules/menus',
  themes: 'modules/themes',
  branding_files: 'modules/appearance',
  custom_pages: 'modules/custom-pages',
  file_entries: 'modules/drive',
  file_entry_stars: 'modules/drive',
  file_versions: 'modules/drive',
  upload_reservations: 'modules/drive',
  charged_bytes: 'modules/drive',
  file_contents: 'modules/search',
  s3_uploads: 'modules/uploads',
  workspaces: 'modules/workspaces',
  workspace_members: 'modules/workspaces',
  workspace_invites: 'modules/workspaces',
  entry_shares: 'modules/sharing',
  share_links: 'modules/share-links',
  share_link_events: 'modules/share-links',
  notifications: 'modules/notifications',
  notification_preferences: 'modules/notifications',
  push_subscriptions: 'modules/notifications',
  webdav_locks: 'modules/webdav',
  webdav_properties: 'modules/webdav',
  products: 'modules/billing',
  prices: 'modules/billing',
  billing_customers: 'modules/billing',
  subscriptions: 'modules/billing',
  billing_events: 'modules/billing',
  admin_activity: 'modules/admin/activity',
  entry_activity: 'modules/activity',
} as const satisfies Record<keyof Database, string>;

export type Table = keyof typeof TABLE_OWNERS;
