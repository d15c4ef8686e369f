import type { Db } from '../../db/index.js';
import { createNameSearch } from '../../db/search.js';
import type { Pause } from '../../lib/test-pause.js';
import type { Disk } from '../../storage/disk.js';
import type { Actor } from '../access/actor.js';
import { resolveScope } from '../access/scope.js';
import { DriveFacade } from './facade.js';
import { DriveFiles, type SignedDownload } from './files.js';
import { GroupCommit } from '../../db/group-commit.js';
import { DriveListing, type ContentSearch } from './listing.js';
import { OfflineManifests } from './offline-manifest.js';
import { QuotaService } from './quota.js';
import { DriveService } from './service.js';
import { SpaceLimits, type SpaceLimitDeps } from './space-limits.js';
import { Thumbnails, type ThumbnailQueue } from './thumbnails.js';
import { ContentChanged, type TextQueue } from './content-changed.js';
import { FileVersions } from './versions.js';
import { TrashService, type TrashRetention } from './trash.js';
import { RetentionPass } from './retention-pass.js';
import type { PlanRules } from './site-rules.js';
import type { Permission } from '../permissions/policy.js';
import type { SettingsService } from '../settings/service.js';
import { noActivity, type ActivityRecorder } from '../activity/recorder.js';

export interface DriveDeps {
  db: Db;
  /** Where file bytes and thumbnails live (storage/disks.ts). */
  disk: Disk;
  settings: Pick<SettingsService, 'get'>;
  /** A payer's plan (billing): its space and trash days. */
  plans: PlanRules;
  /** A user's site permissions (their max_space restriction), for a payer other than the caller. */
  permissionsOf(userId: number): Promise<Permission[]>;
  log: { warn(object: object, message: string): void };
  /** Queues the background job that makes a new file's thumbnail. */
  thumbnailQueue: ThumbnailQueue;
  /** Queues the background job that reads a file's text for content search (modules/search). */
  textQueue?: TextQueue;
  /** Content search for the listing's `content` option (modules/search; a closure: it is built after the drive). */
  contentSearch?: () => ContentSearch | null;
  /** Downloads redirected to the store instead of streamed (files.ts). */
  signedDownload?: SignedDownload | null;
  /** Tests only: see lib/test-pause.ts. */
  pause?: Pause;
  /** Where each action on an entry is recorded (the activity module). */
  activity?: ActivityRecorder;
}

export type BuildDeps = Omit<DriveDeps, 'settings' | 'plans' | 'permissionsOf'> & {
  limits: SpaceLimitDeps;
  retention: TrashRetention & { versionMaxDays(): Promise<number> };
};

/** The drive's services (without its routes: route files import this file's types). */
export function buildDrive({
  db,
  disk,
  limits,
  log,
  pause,
  thumbnailQueue,
  textQueue,
  contentSearch,
  retention,
  signedDownload = null,
  activity = noActivity,
}: BuildDeps) {
  const thumbnails = new Thumbnails(db.kysely, disk, log, thumbnailQueue);
  const newContent = new ContentChanged(thumbnails, textQueue ?? null);
  // New files commit in groups on SQLite, whose writers are serial anyway; PostgreSQL's pool commits them side by side.
  const commits = new GroupCommit(db.kysely, db.dialect === 'sqlite');
  const files = new DriveFiles(db.kysely, disk, newContent, pause, signedDownload, activity, commits);
  // Versions dropped to make room lose their bytes once their rows are gone.
  const quota = new QuotaService(db.kysely, db.dialect, (prefixes) => files.deletePrefixes(prefixes));
  const spaceLimits = new SpaceLimits(limits);
  const entries = new DriveService(db.kysely, files, newContent, quota, spaceLimits, activity);
  const trash = new TrashService(db.kysely, files, retention, activity);
  const versions = new FileVersions(db.kysely, disk, quota, spaceLimits, newContent, activity);
  return {
    /** For the composition root and tests; other modules go through `facade`. */
    disk,
    thumbnails,
    files,
    /** How new files commit (tests read whether they grouped). */
    commits,
    quota,
    listing: new DriveListing(db.kysely, createNameSearch(db.dialect), contentSearch ?? (() => null)),
    /** What a device keeps of a pinned file or folder (issue 39). */
    offline: new OfflineManifests(db.kysely, db.version),
    entries,
    trash,
    versions,
    retention: new RetentionPass(db.kysely, files, trash, () => retention.versionMaxDays()),
    /** A payer's space and how much of it is left (the admin's users table asks it too). */
    spaceLimits,
    facade: new DriveFacade(db.kysely, files, spaceLimits, entries, trash, versions),
    /** The space a call works in, checked against the caller (see access/scope.ts). */
    scope: (actor: Actor, workspaceId: number | null) => resolveScope(db.kysely, actor, workspaceId),
  };
}

export type Drive = ReturnType<typeof buildDrive>;
