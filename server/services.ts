import type { Config } from './config.js';
import type { Db } from './db/index.js';
import type { FileEntryRow } from './db/types.js';
import { defineJobs } from './jobs/catalog.js';
import { runHousekeeping } from './jobs/housekeeping.js';
import type { ModuleRoutes } from './lib/routes.js';
import { Mailer, type MailLogger, type MailMessage } from './mail/mailer.js';
import type { PushJob } from './modules/notifications/notifier.js';
import { createActivity } from './modules/activity/index.js';
import { createAdmin } from './modules/admin/index.js';
import { createApiDocs } from './modules/api-docs/index.js';
import { createAppearance } from './modules/appearance/index.js';
import { AccessCache } from './modules/auth/access-cache.js';
import { createAuth } from './modules/auth/index.js';
import { createBilling } from './modules/billing/index.js';
import { createBootstrap } from './modules/bootstrap/index.js';
import { createCustomPages } from './modules/custom-pages/index.js';
import { createDocuments } from './modules/documents/index.js';
import { createDrive } from './modules/drive/index.js';
import { createHealth } from './modules/health/index.js';
import { createLocalizations } from './modules/localizations/index.js';
import { createManifest } from './modules/manifest/index.js';
import { MenusService } from './modules/menus/service.js';
import { createNotifications } from './modules/notifications/index.js';
import { createRecaptcha } from './modules/recaptcha/index.js';
import { createSettings } from './modules/settings/index.js';
import { createShareLinks } from './modules/share-links/index.js';
import { createSharing } from './modules/sharing/index.js';
import { createSocial } from './modules/social/index.js';
import { createSearch } from './modules/search/index.js';
import { createUploads } from './modules/uploads/index.js';
import { createUsers, permissionsLookup } from './modules/users/index.js';
import { UsersRepository } from './modules/users/repository.js';
import { createWebDav } from './modules/webdav/index.js';
import { createWorkspaces } from './modules/workspaces/index.js';
import { createSharedState } from './scale-out.js';
import { createDisks, directUploadTarget, downloadSigner } from './storage/disks.js';
import { createStoreChecks, tusDir } from './upkeep.js';

/**
 * The composition root: each module builds itself in its index.ts (routes included) from what is passed here; this
 * file only says in which order, with which configuration. Closures (`() => later.x()`) reach modules made further
 * down and are only called once everything is built.
 */
export function createServices(db: Db, config: Config, log: MailLogger & { warn(obj: object, msg: string): void }) {
  const { kysely } = db;
  const accessCache = new AccessCache(db.changes);
  const { settings, siteUrl, mailSettings } = createSettings(kysely, config.appUrl, accessCache);
  const users = new UsersRepository(kysely, accessCache);
  const permissionsOf = permissionsLookup(users);
  // Plan texts are translated like lines, read from billing on use.
  const localizations = createLocalizations(kysely, settings, () => billing.repo.productTexts());
  const mailer = new Mailer(config.mail, log, mailSettings);
  // In memory for one process, in Redis with REDIS_URL (scale-out.ts).
  const shared = createSharedState(config, log, db.changes);
  const { rateLimiter, jobs } = shared;
  // Mail a request causes goes out through the job queue (retried there), never inside the request.
  const sendMail = (message: MailMessage) => jobs.enqueue('mail', message);
  const disks = createDisks(config.storage, config.storageDir);
  const appearance = createAppearance(kysely, settings, disks.branding);
  const billing = createBilling({ db: kysely, settings, stripe: config.stripe, appUrl: siteUrl });
  // Every menu write passes MenusService.write; its onChange is where cached bootstrap data would be dropped.
  const menus = new MenusService(kysely);
  const customPages = createCustomPages(kysely, settings, config.appUrl);
  const common = { db: kysely, users, settings, localizations: localizations.localizations, rateLimiter, sendMail, siteUrl, appUrl: siteUrl };
  const siteName = () => auth.recovery.siteName();
  const queue = { mail: sendMail, push: (job: PushJob) => jobs.enqueue('push', job) };
  const openInvites = (ids: string[]) => workspaces.repo.openInviteIds(ids);
  const notifications = createNotifications({ ...common, log, broadcast: shared.broadcast, queue, siteName, config, openInvites });
  const { notifier } = notifications;
  const directS3Uploads = config.storage.driver === 's3' && config.storage.directUpload;
  const bootstrapConfig = { checked: config.env !== 'production', appUrl: config.appUrl, directS3Uploads, version: db.version };
  const bootstrap = createBootstrap({ ...common, ...bootstrapConfig, menus, notifications: notifications.repo, billing: billing.billing });
  const auth = createAuth({ ...common, accessCache, bootstrap: bootstrap.bootstrap, appUrl: config.appUrl });
  const thumbnailQueue = (entryId: number) => jobs.enqueue('thumbnail', { entryId });
  // A file whose bytes changed has its text read again in the background (content search, issue 35).
  // Every file, not only the kinds that have text: bytes that stopped being text must leave the index too (the job
  // answers those with one delete).
  const textQueue = (entry: FileEntryRow, bytes?: Buffer) => {
    if (bytes) search.hold(entry, bytes);
    jobs.enqueue('extract-text', { entryId: entry.id }).catch((error: unknown) => log.warn({ err: error, entry: entry.hash }, 'text extraction not queued'));
  };
  const contentSearch = () => search.listing;
  const driveConfig = { disk: disks.drive, signedDownload: downloadSigner(config.storage, disks), testPauseAt: config.testPauseAt };
  // Activity first: drive, sharing and share links record each action on an entry through its recorder.
  const activity = createActivity({ db: kysely, users, settings });
  const drive = createDrive({
    ...common,
    ...driveConfig,
    db,
    log,
    plans: billing.billing,
    permissionsOf,
    thumbnailQueue,
    textQueue,
    contentSearch,
    activity: activity.recorder,
  });
  const search = createSearch({ db, drive: drive.facade, log });
  const trashWorkspace = drive.facade.trashWorkspace.bind(drive.facade);
  const workspaces = createWorkspaces({ ...common, db, notifier, siteName, trashWorkspace });
  const account = createUsers({ ...common, auth, avatarDisk: disks.avatars, drive, billing, bootstrap });
  const social = createSocial({ ...common, auth: auth.auth, twoFactor: auth.twoFactor, bootstrap: bootstrap.bootstrap, appUrl: config.appUrl });
  const health = { database: db, jobs, storage: { driver: config.storage.driver, dir: config.storageDir, disk: drive.disk } };
  const adminDeps = { mailer, auth, account, drive, workspaces, billing, customPages, menus, health, storageDir: config.storageDir };
  const admin = createAdmin({ ...common, ...appearance, ...adminDeps });
  const sharing = createSharing({ ...common, notifier, activity: activity.recorder });
  const manifest = createManifest(settings, appearance.themes, appearance.brandingFiles);
  const storeChecks = createStoreChecks(db, config.storageDir, drive.disk);
  const tusConfig = { tusDir: tusDir(config.storageDir), tusLocker: shared.tusLocker, s3: directUploadTarget(config.storage, disks) };
  const uploads = createUploads({ ...common, ...tusConfig, drive, storeChecks });
  const webdav = createWebDav({ ...common, drive, uploads: uploads.uploads, workspaces: workspaces.workspaces, accessTokens: auth.accessTokens });
  const shareLinks = createShareLinks({
    ...common,
    activity: activity.recorder,
    notifier,
    permissionsOf,
    passwordChecks: auth.passwordChecks,
    drive,
    uploads: uploads.uploads,
  });
  const documents = createDocuments({ drive: drive.facade, resolveScope: drive.scope });
  defineJobs(jobs, {
    send: (message) => mailer.send(message),
    deliverPush: (job) => notifier.deliverPush(job),
    makeThumbnail: (entryId) => drive.thumbnails.makeFor(entryId),
    extractText: (entryIds) => search.extract(entryIds),
    housekeeping: () => runHousekeeping({ db: kysely, tus: uploads.tus, quota: drive.quota, checks: storeChecks, s3: uploads.s3Uploads }, log),
    retention: () => drive.retention.run().then(() => undefined),
    pruneActivity: () => activity.activity.prune().then(() => undefined),
  });
  /** Every module's routes, in the order of the OpenAPI document. */
  const probes = [createHealth(db, config.storageDir).routes, createRecaptcha(settings).routes];
  const routes: ModuleRoutes[] = [
    ...[auth.routes, ...auth.twoFactorRoutes, social.routes, bootstrap.routes, localizations.routes, ...probes],
    ...[
      account.routes,
      auth.tokenRoutes,
      drive.routes,
      uploads.routes,
      documents.routes,
      workspaces.routes,
      notifications.routes,
      sharing.routes,
      activity.routes,
    ],
    ...[...shareLinks.routes, ...billing.routes, appearance.routes, admin.routes, customPages.routes, webdav.routes, manifest.routes],
    createApiDocs(settings).routes,
  ];
  // What start-up work (main.ts), app.ts's hooks, benches and tests reach through servicesOf(app): modules as they were built.
  const modules = { auth, drive, search, admin, uploads, notifications, billing, appearance, customPages, bootstrap, activity };
  return { ...modules, db, config, settings, users, localizations: localizations.localizations, mailer, jobs, shared, storeChecks, routes };
}

export type Services = ReturnType<typeof createServices>;
