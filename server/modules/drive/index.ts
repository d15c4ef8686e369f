import type { Db } from '../../db/index.js';
import { createNameSearch } from '../../db/search.js';
import type { Pause } from '../../lib/test-pause.js';
import type { Disk } from '../../storage/disk.js';
import type { Actor } from '../access/actor.js';
import { resolveScope } from '../access/scope.js';
import { DriveFacade } from './facade.js';
import { DriveFiles, type SignedDownload } from './files.js';
import { DriveListing } from './listing.js';
import { OfflineManifests } from './offline-manifest.js';
import { QuotaService } from './quota.js';
import { DriveService } from './service.js';
import { SpaceLimits, type SpaceLimitDeps } from './space-limits.js';
import { Thumbnails, type ThumbnailQueue } from './thumbnails.js';
import { FileVersions } from './versions.js';
import { TrashService } from './trash.js';

export interface DriveDeps {
  db: Db;
  /** Where file bytes and thumbnails live (storage/disks.ts). */
  disk: Disk;
  limits: SpaceLimitDeps;
  log: { warn(object: object, message: string): void };
  /** Queues the background job that makes a new file's thumbnail. */
  thumbnailQueue: ThumbnailQueue;
  /** Downloads redirected to the store instead of streamed (files.ts). */
  signedDownload?: SignedDownload | null;
  /** Tests only: see lib/test-pause.ts. */
  pause?: Pause;
}

/** The drive's services, built once per app (see services.ts). */
export function createDrive({ db, disk, limits, log, pause, thumbnailQueue, signedDownload = null }: DriveDeps) {
  const thumbnails = new Thumbnails(db.kysely, disk, log, thumbnailQueue);
  const files = new DriveFiles(db.kysely, disk, thumbnails, pause, signedDownload);
  const quota = new QuotaService(db.kysely, db.dialect);
  const spaceLimits = new SpaceLimits(limits);
  const entries = new DriveService(db.kysely, files, thumbnails, quota, spaceLimits);
  const trash = new TrashService(db.kysely, files);
  return {
    /** For the composition root and tests; other modules go through `facade`. */
    disk,
    thumbnails,
    files,
    quota,
    listing: new DriveListing(db.kysely, createNameSearch(db.dialect)),
    /** What a device keeps of a pinned file or folder (issue 39). */
    offline: new OfflineManifests(db.kysely, db.version),
    entries,
    trash,
    facade: new DriveFacade(db.kysely, files, spaceLimits, entries, trash, new FileVersions(db.kysely, disk, quota, spaceLimits)),
    /** The space a call works in, checked against the caller (see access/scope.ts). */
    scope: (actor: Actor, workspaceId: number | null) => resolveScope(db.kysely, actor, workspaceId),
  };
}

export type Drive = ReturnType<typeof createDrive>;
