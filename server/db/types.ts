import type { ColumnType, Generated, GeneratedAlways, Insertable, Selectable, Updateable } from 'kysely';

/**
 * The database as the application sees it. Both dialects produce this shape:
 * flags are 0/1 integers, timestamps are ISO-8601 strings (PostgreSQL's
 * timestamptz is parsed to ISO strings in `db/index.ts`), JSON lives in text.
 */
type Timestamp = ColumnType<string, string | undefined, string>;
type NullableTimestamp = ColumnType<string | null, string | null | undefined, string | null>;
type Flag = ColumnType<number, number | undefined, number>;
type JsonText = string;

export interface UsersTable {
  id: Generated<number>;
  email: string;
  password: string | null;
  first_name: string | null;
  last_name: string | null;
  avatar: string | null;
  email2: string | null;
  company: string | null;
  designation: string | null;
  mobile: string | null;
  address: string | null;
  city: string | null;
  country: string | null;
  zipcode: string | null;
  language: string | null;
  timezone: string | null;
  email_verified_at: NullableTimestamp;
  /** Set while an admin has suspended the account: no sign-in, sessions and tokens refused. */
  suspended_at: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface RolesTable {
  id: Generated<number>;
  name: string;
  description: string | null;
  /** The role whose permissions apply to visitors who are not signed in. */
  guests: Flag;
  /** Given to every newly registered user. */
  default: Flag;
  /** Holders without a second factor are sent to set one up at sign-in (issue 36). */
  require_two_factor: Flag;
  type: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface PermissionsTable {
  id: Generated<number>;
  name: string;
  display_name: string | null;
  description: string | null;
  group: string;
  /** JSON: restriction definitions [{name, type, description}]. */
  restrictions: JsonText;
  created_at: Timestamp;
}

export interface RolePermissionsTable {
  role_id: number;
  permission_id: number;
  /** JSON: restriction values [{name, value}]. */
  restrictions: JsonText;
}

export interface UserPermissionsTable {
  user_id: number;
  permission_id: number;
  restrictions: JsonText;
}

export interface UserRolesTable {
  user_id: number;
  role_id: number;
  created_at: Timestamp;
}

export interface SettingsTable {
  key: string;
  /** JSON-encoded value. */
  value: JsonText;
  private: Flag;
  updated_at: Timestamp;
}

export interface LocalizationsTable {
  id: Generated<number>;
  name: string;
  language: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface LocalizationLinesTable {
  id: Generated<number>;
  localization_id: number;
  key: string;
  value: string;
}

export interface MenusTable {
  id: Generated<number>;
  name: string;
  /** JSON: list of position names. */
  positions: JsonText;
  /** JSON: list of menu items. */
  items: JsonText;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ThemesTable {
  id: Generated<number>;
  name: string;
  is_dark: Flag;
  default_light: Flag;
  default_dark: Flag;
  /** JSON: CSS custom property → value. */
  colors: JsonText;
  user_id: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A logo or favicon an admin uploaded; the bytes are on the disk under `branding/<name>`. */
export interface BrandingFilesTable {
  id: Generated<number>;
  name: string;
  mime: string;
  size: number;
  uploaded_by: number | null;
  created_at: Timestamp;
}

export interface SessionsTable {
  /** sha256 of the cookie token: a stolen database cannot replay sessions. */
  id: string;
  user_id: number;
  ip_address: string | null;
  user_agent: string | null;
  remember: Flag;
  created_at: Timestamp;
  last_active_at: Timestamp;
  expires_at: Timestamp;
  /** The admin who signed in as this user (support); null for the user's own sign-ins. */
  impersonator_id: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface PersonalAccessTokensTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  /** sha256 of the token; the token itself is shown once. */
  token_hash: string;
  /** JSON list of scopes: 'read', 'write', 'account' (see modules/auth/token-scopes.ts). */
  scopes: ColumnType<string, string | undefined, string>;
  last_used_at: NullableTimestamp;
  expires_at: NullableTimestamp;
  created_at: Timestamp;
}

export interface UserTokensTable {
  id: Generated<number>;
  user_id: number;
  /** 'verify_email' or 'reset_password'. */
  type: string;
  token_hash: string;
  expires_at: string;
  used_at: NullableTimestamp;
  created_at: Timestamp;
}

export interface SocialProfilesTable {
  id: Generated<number>;
  user_id: number;
  service_name: string;
  user_service_id: string;
  username: string | null;
  created_at: Timestamp;
}

export interface FileEntriesTable {
  id: Generated<number>;
  /** Public, unguessable, URL-safe id; the only id that leaves the server. */
  hash: string;
  /** As the user typed it, NFC-normalised (see modules/drive/names.ts). */
  name: string;
  description: string | null;
  /** 'folder' or a file kind: image, video, audio, pdf, text, spreadsheet, word, powerpoint, archive, sql, file. */
  type: string;
  mime: string | null;
  extension: string | null;
  /** Bytes; for folders the roll-up of the files below them. */
  file_size: ColumnType<number, number | undefined, number>;
  parent_id: number | null;
  /** Ids from the top folder down to this entry, joined by '/' ("12/40/41"). */
  path: ColumnType<string, string | undefined, string>;
  /** Storage key of the bytes: `${disk_prefix}/${file_name}`, both generated. */
  disk_prefix: string | null;
  file_name: string | null;
  sha256: string | null;
  /** 1 once a thumbnail is stored beside the bytes. */
  thumbnail: Flag;
  /** Whose space the entry is in: they are charged for it (see modules/drive/quota.ts). */
  owner_id: number;
  /** Who created it (an upload into someone else's folder); null once that user is deleted. */
  created_by: number | null;
  workspace_id: number | null;
  deleted_at: NullableTimestamp;
  /** When a trashed entry is deleted forever (set with deleted_at; see drive/trash.ts). */
  purge_at: NullableTimestamp;
  /** When and by whom the current bytes were written (null: at creation, by created_by). */
  content_at: NullableTimestamp;
  content_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** An earlier content of a file (see drive/versions.repository.ts). */
export interface FileVersionsTable {
  id: Generated<number>;
  entry_id: number;
  /** The file's owner, charged for the version's bytes. */
  owner_id: number;
  disk_prefix: string;
  file_name: string;
  file_size: ColumnType<number, number, number>;
  sha256: string | null;
  mime: string | null;
  /** Who wrote these bytes, and when. */
  created_by: number | null;
  created_at: Timestamp;
  /** When they stopped being the file's content. */
  replaced_at: Timestamp;
}

/** A file's extracted text for content search (modules/search; migration 2026_11_29_000400). */
export interface FileContentsTable {
  entry_id: number;
  /** The bytes it was read from. */
  sha256: string | null;
  status: 'ok' | 'empty' | 'too_large' | 'failed';
  extractor_version: number;
  text: string;
  /** 1 when the text was cut at the size limit. */
  truncated: number;
  extracted_at: Timestamp;
}

export interface FileEntryStarsTable {
  user_id: number;
  entry_id: number;
  created_at: Timestamp;
}

/**
 * What each user is charged (files, trash included, and versions), kept by
 * triggers on file_entries and file_versions (migration 2026_11_29_000300):
 * read, never written, by the application.
 */
export interface ChargedBytesTable {
  user_id: number;
  bytes: ColumnType<number | string, never, never>;
}

export interface UploadReservationsTable {
  /** The tus upload id, or a generated key for a plain upload. */
  key: string;
  /** Who is charged: the payer of the destination space. */
  user_id: number;
  /** Who uploads: only they may resume, finish or cancel it (null only for rows older than the column). */
  uploader_id: number | null;
  bytes: number;
  /** 'finishing' while a finished tus upload is being turned into an entry (claimed once). */
  kind: 'tus' | 'plain' | 'copy' | 'finishing' | 's3';
  created_at: string;
  expires_at: string;
}

export interface WorkspacesTable {
  id: Generated<number>;
  name: string;
  /** Holds every entry of the workspace and pays for it. */
  owner_id: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WorkspaceMembersTable {
  id: Generated<number>;
  workspace_id: number;
  user_id: number;
  /** A workspace role (roles.type 'workspace'); null for the owner, who may do everything. */
  role_id: number | null;
  is_owner: Flag;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WorkspaceInvitesTable {
  /** Random, unguessable: the bearer token of the invite link. */
  id: string;
  /** The database's insertion counter: the list's order (ids are random, times tie). */
  seq: GeneratedAlways<number>;
  workspace_id: number;
  /** Lower-cased; only the account with this address may join. */
  email: string;
  role_id: number | null;
  invited_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  expires_at: string;
}

export interface NotificationsTable {
  /** A random UUID. */
  id: string;
  /** The database's insertion counter: the list's order (ids are random, times tie). */
  seq: GeneratedAlways<number>;
  user_id: number;
  /** 'workspace-invitation', 'file-entry-shared' (see modules/notifications/types.ts). */
  type: string;
  /** JSON in the shape of spec §3 Notification data. */
  data: JsonText;
  read_at: NullableTimestamp;
  created_at: Timestamp;
}

export interface NotificationPreferencesTable {
  user_id: number;
  /** The notification type's short id ('W01', 'A01'). */
  notif_id: string;
  /** JSON map of channel → boolean. */
  channels: JsonText;
  updated_at: Timestamp;
}

export interface PushSubscriptionsTable {
  id: Generated<number>;
  user_id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  user_agent: string | null;
  created_at: Timestamp;
}

export interface EntrySharesTable {
  id: Generated<number>;
  entry_id: number;
  user_id: number;
  /** 'view' (view and download) or 'edit' (also upload into, rename, move and delete within). */
  permission: string;
  shared_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WebdavLocksTable {
  /** The lock token: `opaquelocktoken:<uuid>`. */
  token: string;
  user_id: number;
  /** What is locked: the space and the names from its root ("u:12/Docs/a.txt", "w:3/Plans"), mapped or not. */
  resource: string;
  /** The locked entry, when it has a row: the lock follows it through renames and moves. */
  entry_id: number | null;
  /** '0' or 'infinity'. */
  depth: string;
  /** 'exclusive' or 'shared'. */
  scope: string;
  /** The client's <owner> element, as sent. */
  owner: string | null;
  timeout_seconds: number;
  expires_at: Timestamp;
  created_at: Timestamp;
}

export interface WebdavPropertiesTable {
  id: Generated<number>;
  entry_id: number;
  namespace: string;
  name: string;
  /** The property element as XML, its namespaces declared. */
  value: string;
}

export interface ShareLinksTable {
  id: Generated<number>;
  /** The link's public id: 144 random bits, base64url. */
  token: string;
  entry_id: number;
  created_by: number;
  allow_download: Generated<number>;
  /** Folders only: guests may upload but see nothing. */
  file_drop: Generated<number>;
  /** 1: the owner gets receipts (the first download; every file dropped). */
  notify_owner: Generated<number>;
  password_hash: string | null;
  expires_at: NullableTimestamp;
  max_downloads: number | null;
  download_count: Generated<number>;
  view_count: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** One action on an entry (issue 35); see the migration 2026_11_29_000500. */
export interface EntryActivityTable {
  id: Generated<number>;
  entry_id: number;
  entry_name: string;
  entry_type: string;
  owner_id: number;
  workspace_id: number | null;
  action: string;
  /** 'user', 'visitor', 'webdav' or 'system'. */
  actor_kind: string;
  actor_id: number | null;
  /** A visitor's address with its host part cut off (IPv4 /24, IPv6 /48). */
  address: string | null;
  /** JSON object. */
  details: string | null;
  created_at: Timestamp;
}

export interface ShareLinkEventsTable {
  id: Generated<number>;
  link_id: number;
  /** 'open', 'preview', 'download', 'upload' or 'password-failed'. */
  kind: string;
  entry_name: string | null;
  /** The visitor's address with its host part cut off (IPv4 /24, IPv6 /48). */
  address: string | null;
  created_at: Timestamp;
}

/** A plan (spec §3 Product). */
export interface ProductsTable {
  id: Generated<number>;
  name: string;
  description: string | null;
  /** JSON list of feature lines. */
  feature_list: ColumnType<JsonText, JsonText | undefined, JsonText>;
  position: Generated<number>;
  recommended: Flag;
  free: Flag;
  hidden: Flag;
  /** Bytes the plan gives (bigint, read as a number); null: unlimited. */
  available_space: number | null;
  /** Days a trashed entry stays before it is deleted forever; null: the site's setting. */
  trash_days: number | null;
  /** The Stripe product, once created there. */
  gateway_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A price of a plan (spec §3 Price); amount in the currency's minor unit. */
export interface PricesTable {
  id: Generated<number>;
  product_id: number;
  amount: number;
  currency: string;
  /** 'day', 'week', 'month' or 'year'. */
  interval: string;
  interval_count: Generated<number>;
  /** The Stripe price, once created there. */
  gateway_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface BillingCustomersTable {
  user_id: number;
  gateway_id: string;
  created_at: Timestamp;
}

/** A subscription as Stripe last told us through a verified webhook. */
export interface SubscriptionsTable {
  id: Generated<number>;
  user_id: number;
  product_id: number;
  price_id: number;
  gateway_name: string;
  gateway_id: string;
  gateway_customer_id: string | null;
  gateway_status: string;
  renews_at: NullableTimestamp;
  ends_at: NullableTimestamp;
  cancelled_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Webhook events already handled (idempotency by event id). */
export interface BillingEventsTable {
  id: string;
  type: string;
  received_at: Timestamp;
}

export interface AdminActivityTable {
  id: Generated<number>;
  actor_id: number | null;
  /** The admin's email when it happened (the row outlives the account). */
  actor_label: string;
  action: string;
  subject_type: string;
  subject_id: string | null;
  subject_label: string | null;
  /** JSON object: what changed. Never secrets. */
  details: ColumnType<string, string | undefined, string>;
  ip_address: string | null;
  created_at: Timestamp;
}

/** Custom content pages (issue 18): body stored sanitised, meta as JSON. */
export interface CustomPagesTable {
  id: Generated<number>;
  title: string;
  slug: string;
  body: string;
  /** JSON: { description, keywords, og_image }. */
  meta: ColumnType<string, string | undefined, string>;
  visibility: ColumnType<'public' | 'signed_in', 'public' | 'signed_in' | undefined, 'public' | 'signed_in'>;
  user_id: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface Database {
  users: UsersTable;
  roles: RolesTable;
  permissions: PermissionsTable;
  role_permissions: RolePermissionsTable;
  user_permissions: UserPermissionsTable;
  user_roles: UserRolesTable;
  settings: SettingsTable;
  localizations: LocalizationsTable;
  localization_lines: LocalizationLinesTable;
  menus: MenusTable;
  themes: ThemesTable;
  sessions: SessionsTable;
  personal_access_tokens: PersonalAccessTokensTable;
  user_tokens: UserTokensTable;
  social_profiles: SocialProfilesTable;
  upload_reservations: UploadReservationsTable;
  charged_bytes: ChargedBytesTable;
  file_entries: FileEntriesTable;
  file_versions: FileVersionsTable;
  file_entry_stars: FileEntryStarsTable;
  workspaces: WorkspacesTable;
  workspace_members: WorkspaceMembersTable;
  workspace_invites: WorkspaceInvitesTable;
  notifications: NotificationsTable;
  notification_preferences: NotificationPreferencesTable;
  push_subscriptions: PushSubscriptionsTable;
  entry_shares: EntrySharesTable;
  share_links: ShareLinksTable;
  share_link_events: ShareLinkEventsTable;
  webdav_locks: WebdavLocksTable;
  webdav_properties: WebdavPropertiesTable;
  products: ProductsTable;
  prices: PricesTable;
  billing_customers: BillingCustomersTable;
  subscriptions: SubscriptionsTable;
  billing_events: BillingEventsTable;
  admin_activity: AdminActivityTable;
  entry_activity: EntryActivityTable;
  branding_files: BrandingFilesTable;
  custom_pages: CustomPagesTable;
  s3_uploads: S3UploadsTable;
  user_totp: UserTotpTable;
  two_factor_recovery_codes: TwoFactorRecoveryCodesTable;
  sign_in_challenges: SignInChallengesTable;
  two_factor_devices: TwoFactorDevicesTable;
  passkeys: PasskeysTable;
  file_contents: FileContentsTable;
  webauthn_challenges: WebauthnChallengesTable;
}

/** A WebAuthn credential (migration 2026_11_28_000610). */
export interface PasskeysTable {
  /** The credential id, base64url. */
  id: string;
  user_id: number;
  name: string;
  /** COSE public key, base64url. */
  public_key: string;
  counter: ColumnType<number, number | undefined, number>;
  /** JSON array of the authenticator's transports. */
  transports: ColumnType<string, string | undefined, string>;
  created_at: Timestamp;
  last_used_at: NullableTimestamp;
}

export interface WebauthnChallengesTable {
  /** sha256 of the cookie token. */
  id: string;
  /** Null for a password-less sign-in: the passkey says whose it is. */
  user_id: number | null;
  purpose: 'register' | 'sign-in' | 'second-step';
  challenge: string;
  expires_at: Timestamp;
}

/** An authenticator app's secret (migration 2026_11_28_000600); confirmed_at null while setup waits for its first code. */
export interface UserTotpTable {
  user_id: number;
  /** Base32, as the otpauth URL carries it. */
  secret: string;
  confirmed_at: NullableTimestamp;
  /** The RFC 6238 step of the last accepted code: later codes only (no replay). */
  last_step: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: Timestamp;
}

export interface TwoFactorRecoveryCodesTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
  used_at: NullableTimestamp;
  created_at: Timestamp;
}

/** A sign-in between its password (or provider) and its second step; never a session. */
export interface SignInChallengesTable {
  /** sha256 of the cookie's token. */
  id: string;
  user_id: number;
  /** The sign-in form's "remember me", applied to the session the second step starts. */
  remember: Flag;
  created_at: Timestamp;
  expires_at: Timestamp;
}

/** "Remember this device for 30 days" after a second step. */
export interface TwoFactorDevicesTable {
  /** sha256 of the cookie's token. */
  id: string;
  user_id: number;
  created_at: Timestamp;
  expires_at: Timestamp;
}

/** A direct upload to S3 in progress (migration 2026_11_25_000110). */
export interface S3UploadsTable {
  /** Also the key of its quota reservation and its objects' folder (disk prefix). */
  id: string;
  kind: 'simple' | 'multipart';
  /** open: bytes arriving; completed: multipart assembled; finishing: becoming a file entry. */
  state: 'open' | 'completed' | 'finishing';
  /** The uploader: only they reach it. */
  user_id: number;
  workspace_id: number | null;
  parent_id: string | null;
  relative_path: string | null;
  name: string;
  mime: string;
  size: number;
  file_name: string;
  part_size: number | null;
  s3_upload_id: string | null;
  created_at: string;
  expires_at: string;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type RoleRow = Selectable<RolesTable>;
export type ThemeRow = Selectable<ThemesTable>;
export type MenuRow = Selectable<MenusTable>;
export type FileEntryRow = Selectable<FileEntriesTable>;
export type FileVersionRow = Selectable<FileVersionsTable>;
export type ShareLinkRow = Selectable<ShareLinksTable>;
export type UploadReservationRow = Selectable<UploadReservationsTable>;
export type S3UploadRow = Selectable<S3UploadsTable>;
export type ProductRow = Selectable<ProductsTable>;
export type PriceRow = Selectable<PricesTable>;
export type SubscriptionRow = Selectable<SubscriptionsTable>;
export type WorkspaceRow = Selectable<WorkspacesTable>;
export type WorkspaceMemberRow = Selectable<WorkspaceMembersTable>;
export type WorkspaceInviteRow = Selectable<WorkspaceInvitesTable>;
export type NotificationRow = Selectable<NotificationsTable>;
