import path from 'node:path';
import type { Db } from './db/index.js';
import { databaseProblems } from './db/integrity.js';
import type { StoreChecks } from './jobs/store-checks.js';
import { StorageIntegrity } from './modules/drive/integrity.js';
import { QuotaService } from './modules/drive/quota.js';
import { UploadReconciler } from './modules/uploads/reconcile.js';
import { TusFolder } from './modules/uploads/tus-folder.js';
import type { Disk } from './storage/disk.js';
import { LocalDisk } from './storage/local-disk.js';

/** Where the drive's objects and the tus uploads live under the storage folder (services.ts uses the same). */
export const driveDir = (storageDir: string) => path.join(storageDir, 'drive');
export const tusDir = (storageDir: string) => path.join(storageDir, 'tus');

/**
 * The store's checks, wired: for start-up recovery and housekeeping (from
 * the app's services) and for the doctor (on its own, writing nothing until
 * asked to repair).
 */
export function createStoreChecks(db: Db, storageDir: string, disk: Disk = new LocalDisk(driveDir(storageDir))): StoreChecks {
  const quota = new QuotaService(db.kysely, db.dialect);
  const storage = new StorageIntegrity(db.kysely, disk);
  return {
    uploads: new UploadReconciler({ quota, folder: new TusFolder(tusDir(storageDir)), storage }),
    storage,
    quota,
    database: () => databaseProblems(db.kysely, db.dialect),
  };
}
