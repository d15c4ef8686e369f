import type { Locker } from '@tus/server';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { API_PREFIX, moduleRoutes } from '../../lib/routes.js';
import type { S3Disk } from '../../storage/s3-disk.js';
import type { Drive } from '../drive/index.js';
import type { SettingsService } from '../settings/service.js';
import { uploadRoutes } from './routes.js';
import { S3DirectUploads } from './s3-direct.js';
import { S3UploadsRepository } from './s3-repository.js';
import { UploadsService } from './service.js';
import { createTusFiles } from './tus-files.js';
import { createTusServer } from './tus.js';

export interface UploadsModuleDeps {
  db: Kysely<Database>;
  settings: Pick<SettingsService, 'all' | 'derived'>;
  drive: Pick<Drive, 'facade' | 'quota' | 'scope'>;
  /** Where unfinished tus uploads are kept (upkeep.ts's tusDir). */
  tusDir: string;
  /** Shared tus locks across processes (scale-out.ts); undefined: in memory. */
  tusLocker: Locker | undefined;
  /** Direct uploads to S3: the drive's S3 disk when they are on, else null (every s3 route answers 404). */
  s3: { disk: S3Disk | null; urlExpiresSeconds: number };
  /** Upkeep's checks: whether a file entry points at bytes under a disk prefix (a direct upload's finish committed). */
  storeChecks: { storage: { committedUnder(prefix: string): Promise<boolean> } };
}

/** Plain, tus and direct-to-S3 uploads. */
export function createUploads(deps: UploadsModuleDeps) {
  const { facade: drive, quota, scope: resolveScope } = deps.drive;
  const tusFiles = createTusFiles(deps.tusDir);
  const uploads = new UploadsService({ settings: deps.settings, drive, quota, resolveScope, tusFiles });
  const s3Uploads = new S3DirectUploads({
    ...deps.s3,
    uploads,
    drive,
    quota,
    repo: new S3UploadsRepository(deps.db),
    resolveScope,
    committedUnder: (prefix) => deps.storeChecks.storage.committedUnder(prefix),
  });
  const tus = createTusServer(uploads, tusFiles, deps.tusLocker);
  return { tusFiles, uploads, s3Uploads, tus, routes: moduleRoutes(API_PREFIX, uploadRoutes, { uploads, tus, s3Uploads }) };
}
