import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECT, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

/**
 * The same expectation runs on both dialects, so both produce the same tables
 * and columns from the one list of migrations.
 */
const expected: Record<string, string[]> = {
  users: [
    'address',
    'avatar',
    'city',
    'company',
    'country',
    'created_at',
    'designation',
    'email',
    'email2',
    'email_verified_at',
    'first_name',
    'id',
    'language',
    'last_name',
    'mobile',
    'password',
    'suspended_at',
    'timezone',
    'updated_at',
    'zipcode',
  ],
  roles: ['created_at', 'default', 'description', 'guests', 'id', 'name', 'require_two_factor', 'type', 'updated_at'],
  permissions: ['created_at', 'description', 'display_name', 'group', 'id', 'name', 'restrictions'],
  role_permissions: ['permission_id', 'restrictions', 'role_id'],
  user_permissions: ['permission_id', 'restrictions', 'user_id'],
  user_roles: ['created_at', 'role_id', 'user_id'],
  settings: ['key', 'private', 'updated_at', 'value'],
  localizations: ['created_at', 'id', 'language', 'name', 'updated_at'],
  localization_lines: ['id', 'key', 'localization_id', 'value'],
  menus: ['created_at', 'id', 'items', 'name', 'positions', 'updated_at'],
  themes: ['colors', 'created_at', 'default_dark', 'default_light', 'id', 'is_dark', 'name', 'updated_at', 'user_id'],
  sessions: ['created_at', 'expires_at', 'id', 'impersonator_id', 'ip_address', 'last_active_at', 'remember', 'user_agent', 'user_id'],
  branding_files: ['created_at', 'id', 'mime', 'name', 'size', 'uploaded_by'],
  admin_activity: ['action', 'actor_id', 'actor_label', 'created_at', 'details', 'id', 'ip_address', 'subject_id', 'subject_label', 'subject_type'],
  entry_activity: [
    'action',
    'actor_id',
    'actor_kind',
    'address',
    'created_at',
    'details',
    'entry_id',
    'entry_name',
    'entry_type',
    'id',
    'owner_id',
    'workspace_id',
  ],
  custom_pages: ['body', 'created_at', 'id', 'meta', 'slug', 'title', 'updated_at', 'user_id', 'visibility'],
  personal_access_tokens: ['created_at', 'expires_at', 'id', 'last_used_at', 'name', 'scopes', 'token_hash', 'user_id'],
  user_tokens: ['created_at', 'expires_at', 'id', 'token_hash', 'type', 'used_at', 'user_id'],
  social_profiles: ['created_at', 'id', 'service_name', 'user_id', 'user_service_id', 'username'],
  upload_reservations: ['bytes', 'created_at', 'expires_at', 'key', 'kind', 'uploader_id', 'user_id'],
  charged_bytes: ['bytes', 'user_id'],
  s3_uploads: [
    'created_at',
    'expires_at',
    'file_name',
    'id',
    'kind',
    'mime',
    'name',
    'parent_id',
    'part_size',
    'relative_path',
    's3_upload_id',
    'size',
    'state',
    'user_id',
    'workspace_id',
  ],
  file_entries: [
    'content_at',
    'content_by',
    'created_at',
    'created_by',
    'deleted_at',
    'description',
    'disk_prefix',
    'extension',
    'file_name',
    'file_size',
    'hash',
    'id',
    'mime',
    'name',
    'owner_id',
    'parent_id',
    'path',
    'purge_at',
    'sha256',
    'thumbnail',
    'type',
    'updated_at',
    'workspace_id',
  ],
  file_entry_stars: ['created_at', 'entry_id', 'user_id'],
  file_versions: ['created_at', 'created_by', 'disk_prefix', 'entry_id', 'file_name', 'file_size', 'id', 'mime', 'owner_id', 'replaced_at', 'sha256'],
  workspaces: ['created_at', 'id', 'name', 'owner_id', 'updated_at'],
  workspace_members: ['created_at', 'id', 'is_owner', 'role_id', 'updated_at', 'user_id', 'workspace_id'],
  workspace_invites: ['created_at', 'email', 'expires_at', 'id', 'invited_by', 'role_id', 'seq', 'updated_at', 'workspace_id'],
  notifications: ['created_at', 'data', 'id', 'read_at', 'seq', 'type', 'user_id'],
  notification_preferences: ['channels', 'notif_id', 'updated_at', 'user_id'],
  push_subscriptions: ['auth', 'created_at', 'endpoint', 'id', 'p256dh', 'user_agent', 'user_id'],
  entry_shares: ['created_at', 'entry_id', 'id', 'permission', 'shared_by', 'updated_at', 'user_id'],
  webdav_locks: ['created_at', 'depth', 'entry_id', 'expires_at', 'owner', 'resource', 'scope', 'timeout_seconds', 'token', 'user_id'],
  webdav_properties: ['entry_id', 'id', 'name', 'namespace', 'value'],
  share_links: [
    'allow_download',
    'created_at',
    'created_by',
    'download_count',
    'entry_id',
    'expires_at',
    'file_drop',
    'id',
    'max_downloads',
    'notify_owner',
    'password_hash',
    'token',
    'updated_at',
    'view_count',
  ],
  share_link_events: ['address', 'created_at', 'entry_name', 'id', 'kind', 'link_id'],
  products: [
    'available_space',
    'created_at',
    'description',
    'feature_list',
    'free',
    'gateway_id',
    'hidden',
    'id',
    'name',
    'position',
    'recommended',
    'trash_days',
    'updated_at',
  ],
  prices: ['amount', 'created_at', 'currency', 'gateway_id', 'id', 'interval', 'interval_count', 'product_id', 'updated_at'],
  billing_customers: ['created_at', 'gateway_id', 'user_id'],
  subscriptions: [
    'cancelled_at',
    'created_at',
    'ends_at',
    'gateway_customer_id',
    'gateway_id',
    'gateway_name',
    'gateway_status',
    'id',
    'price_id',
    'product_id',
    'renews_at',
    'updated_at',
    'user_id',
  ],
  billing_events: ['id', 'received_at', 'type'],
  // Two-factor sign-in and passkeys (issue 36).
  user_totp: ['confirmed_at', 'created_at', 'last_step', 'secret', 'user_id'],
  two_factor_recovery_codes: ['code_hash', 'created_at', 'id', 'used_at', 'user_id'],
  sign_in_challenges: ['created_at', 'expires_at', 'id', 'remember', 'user_id'],
  two_factor_devices: ['created_at', 'expires_at', 'id', 'user_id'],
  passkeys: ['counter', 'created_at', 'id', 'last_used_at', 'name', 'public_key', 'transports', 'user_id'],
  webauthn_challenges: ['challenge', 'expires_at', 'id', 'purpose', 'user_id'],
  // Content search (issue 35): PostgreSQL keeps the tsvector in the row, SQLite in an FTS5 table (below).
  file_contents: ['entry_id', 'extracted_at', 'extractor_version', ...(DIALECT === 'postgres' ? ['search'] : []), 'sha256', 'status', 'text', 'truncated'],
  // The name search index differs by dialect (db/search.ts): SQLite's is an FTS5 table with its shadow tables.
  ...(DIALECT === 'sqlite'
    ? {
        file_entries_search: ['name'],
        file_entries_search_config: ['k', 'v'],
        file_entries_search_data: ['block', 'id'],
        file_entries_search_docsize: ['id', 'sz'],
        file_entries_search_idx: ['pgno', 'segid', 'term'],
        file_contents_search: ['words'],
        file_contents_search_config: ['k', 'v'],
        file_contents_search_data: ['block', 'id'],
        file_contents_search_docsize: ['id', 'origin', 'sz'],
        file_contents_search_idx: ['pgno', 'segid', 'term'],
      }
    : {}),
  // PostgreSQL's charged totals take each statement's deltas here until its transaction commits (migration 2026_12_03_000200).
  ...(DIALECT === 'postgres' ? { charged_bytes_pending: ['bytes', 'user_id'] } : {}),
};

describe('migrations', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('create the same tables and columns on this dialect', async () => {
    const tables = await servicesOf(t.app).db.kysely.introspection.getTables();
    const actual = Object.fromEntries(tables.map((table) => [table.name, table.columns.map((c) => c.name).sort()]));
    expect(actual).toEqual(expected);
  });

  it('run again as a no-op', async () => {
    const { migrateToLatest } = await import('../../../server/db/migrate.js');
    await expect(migrateToLatest(servicesOf(t.app).db.kysely)).resolves.toBeUndefined();
  });

  it('make user emails unique', async () => {
    const db = servicesOf(t.app).db.kysely;
    const row = { email: 'same@example.com', created_at: new Date().toISOString(), updated_at: new Date().toISOString() };
    await db.insertInto('users').values(row).execute();
    await expect(db.insertInto('users').values(row).execute()).rejects.toThrow();
  });
});
