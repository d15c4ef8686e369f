import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Database } from './types.js';
import * as foundation from './migrations/2026_11_22_000001_foundation.js';
import * as accounts from './migrations/2026_11_22_000002_accounts.js';
import * as drive from './migrations/2026_11_22_000003_drive.js';
import * as uploads from './migrations/2026_11_22_000004_uploads.js';
import * as listingIndexes from './migrations/2026_11_22_000005_listing_indexes.js';
import * as entryCreators from './migrations/2026_11_23_000001_entry_creators.js';
import * as tokenScopes from './migrations/2026_11_23_000002_token_scopes.js';
import * as workspaces from './migrations/2026_11_24_000001_workspaces.js';
import * as notifications from './migrations/2026_11_24_000002_notifications.js';
import * as entryShares from './migrations/2026_11_24_000003_entry_shares.js';
import * as shareLinks from './migrations/2026_11_25_000010_share_links.js';
import * as billing from './migrations/2026_11_25_000030_billing.js';
import * as webdav from './migrations/2026_11_25_000050_webdav.js';
import * as admin from './migrations/2026_11_25_000070_admin.js';
import * as customPagesMenus from './migrations/2026_11_25_000090_custom_pages_menus.js';
import * as localizationsThemes from './migrations/2026_11_25_000100_localizations_themes.js';
import * as s3Uploads from './migrations/2026_11_25_000110_s3_uploads.js';
import * as pgListingOrder from './migrations/2026_11_25_000120_pg_listing_order.js';
import * as insertionOrder from './migrations/2026_11_26_000010_insertion_order.js';
import * as childNameIndex from './migrations/2026_11_27_000400_child_name_index.js';
import * as webdavLockEntries from './migrations/2026_11_27_000410_webdav_lock_entries.js';
import * as fileVersions from './migrations/2026_11_27_000500_file_versions.js';
import * as legalPagesPlanStorage from './migrations/2026_11_27_000600_legal_pages_and_plan_storage.js';
import * as chargedBytesIndex from './migrations/2026_11_28_000420_charged_bytes_index.js';
import * as twoFactor from './migrations/2026_11_28_000600_two_factor.js';
import * as passkeys from './migrations/2026_11_28_000610_passkeys.js';
import * as roleTwoFactor from './migrations/2026_11_29_000100_role_two_factor.js';
import * as chargedBytesTotals from './migrations/2026_11_29_000300_charged_bytes_totals.js';
import * as fileContents from './migrations/2026_11_29_000400_file_contents.js';
import * as entryActivity from './migrations/2026_11_29_000500_entry_activity.js';
import * as dropUnusedEntryIndexes from './migrations/2026_12_03_000100_drop_unused_entry_indexes.js';
import * as chargedBytesPerStatement from './migrations/2026_12_03_000200_charged_bytes_per_statement.js';

/**
 * Migrations are listed here rather than read from a folder so that the built
 * server (tsc output) and the tests (TypeScript sources) run the same list.
 */
const migrations: Record<string, Migration> = {
  '2026_11_22_000001_foundation': foundation,
  '2026_11_22_000002_accounts': accounts,
  '2026_11_22_000003_drive': drive,
  '2026_11_22_000004_uploads': uploads,
  '2026_11_22_000005_listing_indexes': listingIndexes,
  '2026_11_23_000001_entry_creators': entryCreators,
  '2026_11_23_000002_token_scopes': tokenScopes,
  '2026_11_24_000001_workspaces': workspaces,
  '2026_11_24_000002_notifications': notifications,
  '2026_11_24_000003_entry_shares': entryShares,
  '2026_11_25_000010_share_links': shareLinks,
  '2026_11_25_000030_billing': billing,
  '2026_11_25_000050_webdav': webdav,
  '2026_11_25_000070_admin': admin,
  '2026_11_25_000090_custom_pages_menus': customPagesMenus,
  '2026_11_25_000100_localizations_themes': localizationsThemes,
  '2026_11_25_000110_s3_uploads': s3Uploads,
  '2026_11_25_000120_pg_listing_order': pgListingOrder,
  '2026_11_26_000010_insertion_order': insertionOrder,
  '2026_11_27_000400_child_name_index': childNameIndex,
  '2026_11_27_000410_webdav_lock_entries': webdavLockEntries,
  '2026_11_27_000500_file_versions': fileVersions,
  '2026_11_27_000600_legal_pages_and_plan_storage': legalPagesPlanStorage,
  '2026_11_28_000420_charged_bytes_index': chargedBytesIndex,
  '2026_11_28_000600_two_factor': twoFactor,
  '2026_11_28_000610_passkeys': passkeys,
  '2026_11_29_000100_role_two_factor': roleTwoFactor,
  '2026_11_29_000300_charged_bytes_totals': chargedBytesTotals,
  '2026_11_29_000400_file_contents': fileContents,
  '2026_11_29_000500_entry_activity': entryActivity,
  '2026_12_03_000100_drop_unused_entry_indexes': dropUnusedEntryIndexes,
  '2026_12_03_000200_charged_bytes_per_statement': chargedBytesPerStatement,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    const name = failed ? ` (${failed.migrationName})` : '';
    throw new Error(`Database migration failed${name}: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
}

/** Migrations this database has not run yet (a read-only check, for the doctor). */
export async function pendingMigrations(db: Kysely<Database>): Promise<string[]> {
  const all = await new Migrator({ db, provider }).getMigrations();
  return all.filter((migration) => !migration.executedAt).map((migration) => migration.name);
}
