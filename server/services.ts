import type { Config } from './config.js';
import type { Db } from './db/index.js';
import { pauseAt } from './lib/test-pause.js';
import { Mailer, type MailLogger, type MailMessage } from './mail/mailer.js';
import { AccessCache } from './modules/auth/access-cache.js';
import { APP_VERSION } from './modules/bootstrap/service.js';
import { createBootstrap } from './modules/bootstrap/index.js';
import { bytesCharged } from './modules/drive/repository.js';
import { createDrive } from './modules/drive/index.js';
import { createHealth } from './modules/health/index.js';
import { createLocalizations } from './modules/localizations/index.js';
import { createManifest } from './modules/manifest/index.js';
import { createAppearance } from './modules/appearance/index.js';
import { createRecaptcha } from './modules/recaptcha/index.js';
import { createApiDocs } from './modules/api-docs/index.js';
import { SettingsService } from './modules/settings/service.js';
import { UsersRepository } from './modules/users/repository.js';
import { verifyPassword } from './modules/auth/passwords.js';
import { createStoreChecks, tusDir } from './upkeep.js';
import { createSharedState } from './scale-out.js';
import { runHousekeeping } from './jobs/housekeeping.js';
import { createDisks, signedDownloads } from './storage/disks.js';
import { createAdmin } from './modules/admin/index.js';
import { createDocuments } from './modules/documents/index.js';
import { createUploads } from './modules/uploads/index.js';
import { createWebDav } from './modules/webdav/index.js';
import { createAuth } from './modules/auth/index.js';
import { createSocial } from './modules/social/index.js';
import { createUsers, permissionsLookup, tokenUserPermissions } from './modules/users/index.js';
import { createBilling } from './modules/billing/index.js';
import { createNotifications } from './modules/notifications/index.js';
import { createWorkspaces } from './modules/workspaces/index.js';
import { createSharing } from './modules/sharing/index.js';
import { createShareLinks } from './modules/share-links/index.js';
import { API_PREFIX, moduleRoutes, type ModuleRoutes } from './lib/routes.js';
import { siteUrlFrom } from './modules/settings/site-url.js';
import { createCustomPages } from './modules/custom-pages/index.js';
import { MenusService } from './modules/menus/service.js';

/** The services of one app instance. Routes reach them through `app.services`. */
export function createServices(db: Db, config: Config, log: MailLogger & { warn(obj: object, msg: string): void }) {
  const kysely = db.kysely;
  const settings = new SettingsService(kysely);
  const accessCache = new AccessCache(db.changes);
  const users = new UsersRepository(kysely, accessCache);
  // Plan texts are translated like lines; billing is made below and read only on use.
  const { localizations, routes: localizationRoutes } = createLocalizations(kysely, settings, () => billingModule.repo.productTexts());
  const mailer = new Mailer(config.mail, log, async () => {
    const [url, from] = await Promise.all([settings.get('mail.url'), settings.get('mail.from')]);
    return { url: typeof url === 'string' ? url : '', from: typeof from === 'string' ? from : '' };
  });
  // In memory for one process, in Redis with REDIS_URL (scale-out.ts).
  const shared = createSharedState(config, log, db.changes);
  const { rateLimiter, jobs } = shared;
  const siteUrl = siteUrlFrom(settings, config.appUrl);
  // Mail a request causes goes out through the job queue (retried there), never inside the request.
  const queueMail = (message: MailMessage) => jobs.enqueue('mail', message);
  const disks = createDisks(config.storage, config.storageDir);
  const { themes, appearance, brandingFiles, routes: brandingRoutes } = createAppearance(kysely, settings, disks.branding);
  const permissionsOf = permissionsLookup(users);
  const billingModule = createBilling({ db: kysely, settings, stripe: config.stripe, appUrl: siteUrl, usedBy: (userId) => bytesCharged(kysely, userId) });
  const { billing } = billingModule;
  // Every menu write passes MenusService.write; its onChange is where cached bootstrap data would be dropped.
  const menus = new MenusService(kysely);
  const customPages = createCustomPages(kysely, settings, config.appUrl);
  const customPagesRepo = customPages.repo;
  const bootstrap = createBootstrap(config.env !== 'production', kysely, settings, users, localizations, config.appUrl, {
    menus: () => menus.list(),
    unreadNotifications: (userId) => notificationsModule.repo.unreadCount(userId),
    subscriptions: (userId) => billing.subscriptionFlags(userId),
    billingEnabled: () => billing.enabled(),
    directS3Uploads: config.storage.driver === 's3' && config.storage.directUpload,
    version: () => db.version(),
  });
  const authModule = createAuth({ db: kysely, accessCache, users, settings, rateLimiter, sendMail: queueMail, siteUrl, bootstrap: bootstrap.bootstrap });
  const { sessions, auth, recovery } = authModule;
  const limits = {
    siteDefault: async () => {
      const setting = await settings.get('uploads.available_space');
      return typeof setting === 'number' ? setting : null;
    },
    permissionsOf,
    planSpace: (userId: number) => billing.planSpace(userId),
  };
  const drive = createDrive({
    db,
    disk: disks.drive,
    signedDownload:
      disks.s3 && config.storage.driver === 's3' && config.storage.downloads === 'redirect'
        ? signedDownloads(disks.s3, config.storage.urlExpiresSeconds)
        : null,
    log,
    pause: pauseAt(config.testPauseAt),
    limits,
    thumbnailQueue: (entryId) => jobs.enqueue('thumbnail', { entryId }),
    retention: {
      trashDays: async (ownerId) => {
        const plan = await billing.planTrashDays(ownerId);
        if (plan !== undefined) return plan;
        const setting = await settings.get('trash.keep_days');
        return typeof setting === 'number' && setting > 0 ? setting : 30;
      },
      versionMaxDays: async () => {
        const setting = await settings.get('versions.max_days');
        return typeof setting === 'number' && setting >= 0 ? setting : 365;
      },
    },
  });
  const notificationsModule = createNotifications({
    db: kysely,
    // Workspaces are made below and asked only on use.
    openInvites: (ids) => workspaces.repo.openInviteIds(ids),
    broadcast: shared.broadcast,
    log,
    settings,
    users,
    localizations,
    queue: { mail: queueMail, push: (job) => jobs.enqueue('push', job) },
    siteName: () => recovery.siteName(),
    appUrl: siteUrl,
    config: { appUrl: config.appUrl, mailFrom: config.mail.from, pushAllowLoopback: config.pushAllowLoopback },
  });
  const { notifier } = notificationsModule;
  const workspaces = createWorkspaces({
    db,
    users,
    notifier,
    rateLimiter,
    sendMail: queueMail,
    siteName: () => recovery.siteName(),
    appUrl: siteUrl,
    trashWorkspace: (trx, id) => drive.facade.trashWorkspace(trx, id),
  });
  const { stripeClient } = billingModule;
  const usersModule = createUsers({
    db: kysely,
    users,
    settings,
    localizations,
    auth: authModule,
    avatarDisk: disks.avatars,
    drive: drive.facade,
    spaceLimits: drive.spaceLimits,
    billing,
    bootstrap: bootstrap.bootstrap,
  });
  const { avatars, account } = usersModule;
  const social = createSocial({ db: kysely, users, settings, auth, bootstrap: bootstrap.bootstrap, appUrl: config.appUrl });
  const admin = createAdmin({
    db: kysely,
    plans: { stripe: stripeClient, catalog: billingModule.repo },
    subscriptions: { stripe: stripeClient, billing: billingModule.repo },
    settings,
    localizations,
    themes,
    appearance,
    brandingFiles,
    mailer,
    sessions,
    dashboard: { storageDir: config.storageDir, version: APP_VERSION, verifyPassword },
    customPages: customPagesRepo,
    menus,
    storedFiles: drive.files,
    files: {
      deleteForeverByIds: (trx, ids) => drive.facade.deleteForeverByIds(trx, ids),
      purgeBytes: (prefixes) => drive.facade.purgeBytes(prefixes),
      fileForSupport: (id) => drive.facade.fileForSupport(id),
    },
    workspaces: {
      deleteWorkspace: workspaces.deleteWorkspace,
    },
    users: usersModule.forAdmin,
  });
  const sharing = createSharing({ db: kysely, users, notifier, rateLimiter });
  const health = createHealth(db, config.storageDir);
  const recaptcha = createRecaptcha(settings);
  const manifest = createManifest(settings, themes, brandingFiles);
  const storeChecks = createStoreChecks(db, config.storageDir, drive.disk);
  const uploadsModule = createUploads({
    db: kysely,
    settings,
    drive,
    tusDir: tusDir(config.storageDir),
    tusLocker: shared.tusLocker,
    s3: {
      disk: config.storage.driver === 's3' && config.storage.directUpload ? disks.s3 : null,
      urlExpiresSeconds: config.storage.driver === 's3' ? config.storage.urlExpiresSeconds : 0,
    },
    committedUnder: (prefix) => storeChecks.storage.committedUnder(prefix),
  });
  const { uploads, s3Uploads, tus, tusFiles } = uploadsModule;
  const webdav = createWebDav({
    db: kysely,
    drive: drive.facade,
    uploads,
    scope: drive.scope,
    workspaces: (actor) => workspaces.workspaces.list(actor),
    siteUrl,
    accessTokens: authModule.accessTokens,
    permissionsOf: tokenUserPermissions(users),
    rateLimiter,
  });
  const shareLinks = createShareLinks({ db: kysely, settings, users, permissionsOf, passwordChecks: authModule.passwordChecks, drive, uploads, appUrl: siteUrl });
  const documents = createDocuments({ drive: drive.facade, resolveScope: drive.scope });
  // Every process defines every job, so any of them can run what another queued.
  jobs.define('mail', (message) => mailer.send(message));
  jobs.define('push', (job) => notifier.deliverPush(job));
  // One at a time per process: sharp is CPU- and memory-hungry, and uploads come in bursts.
  jobs.define('thumbnail', ({ entryId }) => drive.thumbnails.makeFor(entryId), { attempts: 1, concurrency: 1 });
  jobs.define('housekeeping', () => runHousekeeping({ db: kysely, tus, quota: drive.quota, checks: storeChecks, s3: s3Uploads }, log), { attempts: 1 });
  jobs.define('retention', () => drive.retention.run().then(() => undefined), { attempts: 1 });
  return {
    db,
    accessCache,
    config,
    settings,
    users,
    localizations,
    sessions,
    accessTokens: authModule.accessTokens,
    userTokens: authModule.userTokens,
    mailer,
    rateLimiter,
    auth,
    registration: authModule.registration,
    recovery,
    avatars,
    account,
    themes,
    brandingFiles,
    social: social.social,
    bootstrap: bootstrap.bootstrap,
    bootstrapJson: bootstrap.bootstrapJson,
    billing,
    billingWebhooks: billingModule.billingWebhooks,
    admin,
    drive,
    workspaces: workspaces.workspaces,
    sharing: sharing.sharing,
    shareLinks: shareLinks.shareLinks,
    shareLinkVisitors: shareLinks.shareLinkVisitors,
    jobs,
    notificationBus: notificationsModule.bus,
    notifier,
    notifications: notificationsModule.notifications,
    vapidPublicKey: notificationsModule.vapidPublicKey,
    uploads,
    webdav: webdav.webdav,
    webdavPermissionsOf: tokenUserPermissions(users),
    documents: documents.documents,
    menus,
    customPages: customPages.customPages,
    tusFiles,
    tus,
    /** Start-up recovery, housekeeping and the doctor's checks of the database against the disk. */
    storeChecks,
    /** Rate limits, broadcast, jobs and tus locks: in-process or in Redis (scale-out.ts); closed with the app. */
    shared,
    broadcast: shared.broadcast,
    s3Uploads,
    recaptcha: recaptcha.recaptcha,
    manifest: manifest.manifest,
    health: health.health,
    /** Every module's routes, in the order of the OpenAPI document. */
    routes: [
      authModule.routes,
      social.routes,
      bootstrap.routes,
      localizationRoutes,
      health.routes,
      recaptcha.routes,
      usersModule.routes,
      authModule.tokenRoutes,
      drive.routes,
      uploadsModule.routes,
      documents.routes,
      workspaces.routes,
      notificationsModule.routes,
      sharing.routes,
      ...shareLinks.routes,
      ...billingModule.routes,
      brandingRoutes,
      admin.routes,
      customPages.routes,
      webdav.routes,
      manifest.routes,
      createApiDocs(settings).routes,
    ] satisfies ModuleRoutes[],
  };
}

export type Services = ReturnType<typeof createServices>;
