import type { Config } from './config.js';
import type { Db } from './db/index.js';
import { pauseAt } from './lib/test-pause.js';
import { consume } from './lib/rate-limiter.js';
import { Unauthenticated } from './lib/errors.js';
import { Mailer, type MailLogger, type MailMessage } from './mail/mailer.js';
import { AccessTokensService } from './modules/auth/access-tokens.js';
import { RecoveryService } from './modules/auth/recovery.js';
import { RegistrationService } from './modules/auth/registration.js';
import { PasswordChecks } from './modules/auth/password-checks.js';
import { AuthService } from './modules/auth/service.js';
import { SessionsService } from './modules/auth/sessions.js';
import { AccessCache } from './modules/auth/access-cache.js';
import { UserTokensService } from './modules/auth/user-tokens.js';
import { BootstrapJson } from './modules/bootstrap/json.js';
import { APP_VERSION, BootstrapService } from './modules/bootstrap/service.js';
import { StripeGateway } from './modules/billing/gateway.js';
import { BillingRepository } from './modules/billing/repository.js';
import { BillingService } from './modules/billing/service.js';
import { BillingWebhooks } from './modules/billing/webhooks.js';
import { bytesCharged } from './modules/drive/repository.js';
import { createDrive } from './modules/drive/index.js';
import { HealthService } from './modules/health/service.js';
import { LocalizationsService } from './modules/localizations/service.js';
import { ManifestService } from './modules/manifest/service.js';
import { ThemesService } from './modules/themes/service.js';
import { AppearanceService } from './modules/appearance/service.js';
import { BrandingFiles } from './modules/appearance/branding-files.js';
import { RecaptchaService } from './modules/recaptcha/service.js';
import { SettingsService } from './modules/settings/service.js';
import { SocialAccountsService } from './modules/social/service.js';
import { AvatarStore } from './modules/users/avatars.js';
import { UsersRepository } from './modules/users/repository.js';
import { AccountService } from './modules/users/service.js';
import { UploadsService } from './modules/uploads/service.js';
import { DocumentsService } from './modules/documents/service.js';
import { createTusServer } from './modules/uploads/tus.js';
import { createTusFiles } from './modules/uploads/tus-files.js';
import { BroadcastBus, type NotificationBus } from './modules/notifications/bus.js';
import { S3DirectUploads } from './modules/uploads/s3-direct.js';
import { S3UploadsRepository } from './modules/uploads/s3-repository.js';
import { Notifier } from './modules/notifications/notifier.js';
import { generateVapidKeys } from './modules/notifications/push.js';
import { NotificationsRepository } from './modules/notifications/repository.js';
import { NotificationsService } from './modules/notifications/service.js';
import { SharesRepository } from './modules/sharing/repository.js';
import { SharingService } from './modules/sharing/service.js';
import { fileEntryShared } from './modules/notifications/file-shared.js';
import { displayName } from './modules/users/presenter.js';
import { hashPassword, verifyPassword } from './modules/auth/passwords.js';
import { presentByIds } from './modules/drive/present.js';
import { ShareLinksRepository } from './modules/share-links/repository.js';
import { ShareLinksService } from './modules/share-links/service.js';
import { ShareLinkVisitors } from './modules/share-links/visitor.js';
import { WorkspacesRepository } from './modules/workspaces/repository.js';
import { WorkspacesService } from './modules/workspaces/service.js';
import { createStoreChecks, tusDir } from './upkeep.js';
import { createSharedState } from './scale-out.js';
import { runHousekeeping } from './jobs/housekeeping.js';
import { createDisks, signedDownloads } from './storage/disks.js';
import { WebDavRepository } from './modules/webdav/repository.js';
import { WebDavService } from './modules/webdav/service.js';
import { createAdmin } from './modules/admin/index.js';
import { siteUrlFrom } from './modules/settings/site-url.js';
import { CustomPagesRepository } from './modules/custom-pages/repository.js';
import { CustomPagesService } from './modules/custom-pages/service.js';
import { MenusService } from './modules/menus/service.js';
import { SpaceLimits } from './modules/drive/space-limits.js';
import { userActor } from './modules/access/actor.js';
import { workspaceInvitation } from './modules/workspaces/invitation-notification.js';

const HOUR_MS = 60 * 60 * 1000;
/** Invite mails a user may send in an hour, and people they may notify by sharing: generous for teams, useless for spam. */
export const INVITES_PER_HOUR = 100;
export const SHARE_RECIPIENTS_PER_HOUR = 200;

/** The services of one app instance. Routes reach them through `app.services`. */
export function createServices(db: Db, config: Config, log: MailLogger & { warn(obj: object, msg: string): void }) {
  const kysely = db.kysely;
  const settings = new SettingsService(kysely);
  const accessCache = new AccessCache(db.changes);
  const users = new UsersRepository(kysely, accessCache);
  const localizations = new LocalizationsService(kysely, settings);
  const sessions = new SessionsService(kysely, accessCache);
  const accessTokens = new AccessTokensService(kysely);
  const userTokens = new UserTokensService(kysely);
  const mailer = new Mailer(config.mail, log, async () => {
    const [url, from] = await Promise.all([settings.get('mail.url'), settings.get('mail.from')]);
    return { url: typeof url === 'string' ? url : '', from: typeof from === 'string' ? from : '' };
  });
  // In memory for one process, in Redis with REDIS_URL (scale-out.ts).
  const shared = createSharedState(config, log, db.changes);
  const { rateLimiter, jobs } = shared;
  const passwordChecks = new PasswordChecks(rateLimiter);
  const auth = new AuthService(users, passwordChecks, sessions);
  const siteUrl = siteUrlFrom(settings, config.appUrl);
  const channelOn = async (channel: 'email' | 'browser') => (await settings.get(`notifications.channels.${channel}`)) !== false;
  // Mail a request causes goes out through the job queue (retried there), never inside the request.
  const queueMail = (message: MailMessage) => jobs.enqueue('mail', message);
  const recovery = new RecoveryService(kysely, users, userTokens, sessions, settings, queueMail, siteUrl);
  const disks = createDisks(config.storage, config.storageDir);
  const avatars = new AvatarStore(disks.avatars);
  const themes = new ThemesService(kysely);
  const appearance = new AppearanceService(settings, themes);
  const brandingFiles = new BrandingFiles(kysely, disks.branding);
  const permissionsOf = async (userId: number) => (await users.findWithAccess(userId))?.permissions ?? [];
  const billingRepo = new BillingRepository(kysely);
  const stripeGateway = new StripeGateway(async () => {
    const secret = await settings.get('billing.stripe.secret_key');
    const webhook = await settings.get('billing.stripe.webhook_secret');
    return {
      secretKey: (typeof secret === 'string' && secret) || config.stripe.secretKey || '',
      webhookSecret: (typeof webhook === 'string' && webhook) || config.stripe.webhookSecret || '',
    };
  }, config.stripe.apiBase);
  const billing = new BillingService(billingRepo, stripeGateway, {
    switchedOn: async () => (await settings.get('billing.enable')) !== false,
    appUrl: siteUrl,
    usedBy: (userId) => bytesCharged(kysely, userId),
  });
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
  const shareLinksRepo = new ShareLinksRepository(kysely);
  const tusFiles = createTusFiles(tusDir(config.storageDir));
  const notificationBus: NotificationBus = new BroadcastBus(shared.broadcast, log);
  const notificationsRepo = new NotificationsRepository(kysely);
  const pushRules = { allowLoopback: config.pushAllowLoopback };
  const vapid = () => settings.vapidKeys(generateVapidKeys);
  const notifier = new Notifier({
    repo: notificationsRepo,
    bus: notificationBus,
    queue: { mail: queueMail, push: (job) => jobs.enqueue('push', job) },
    recipient: async (userId) => {
      const user = await users.findById(userId);
      if (!user) return undefined;
      const fallback = await settings.get('i18n.default_localization');
      const found = await localizations.resolve([user.language, typeof fallback === 'string' ? fallback : null]);
      return { email: user.email, lines: found ? await localizations.lines(found.id) : null };
    },
    siteName: () => recovery.siteName(),
    appUrl: siteUrl,
    vapid,
    vapidSubject: config.appUrl.startsWith('https:') ? config.appUrl : `mailto:${/<([^>]+)>/.exec(config.mail.from)?.[1] ?? config.mail.from}`,
    pushRules,
    channelOn,
  });
  const workspacesRepo = new WorkspacesRepository(kysely);
  const workspaces = new WorkspacesService(kysely, db.dialect, workspacesRepo, {
    findUser: (id) => users.findById(id),
    findUserIdByEmail: async (email) => (await users.findByEmail(email))?.id,
    sendMail: queueMail,
    siteName: () => recovery.siteName(),
    appUrl: siteUrl,
    trashWorkspace: (trx, id) => drive.facade.trashWorkspace(trx, id),
    notifyInvited: (invite) => workspaceInvitation(notifier, invite),
    countInvites: (userId, emails) => consume(rateLimiter, { key: `invites:${userId}`, max: INVITES_PER_HOUR, windowMs: HOUR_MS }, emails),
  });
  // Every menu write passes MenusService.write; its onChange is where cached bootstrap data would be dropped.
  const menus = new MenusService(kysely);
  const customPagesRepo = new CustomPagesRepository(kysely);
  const bootstrap = new BootstrapService(kysely, settings, users, localizations, config.appUrl, {
    menus: () => menus.list(),
    unreadNotifications: (userId) => notificationsRepo.unreadCount(userId),
    subscriptions: (userId) => billing.subscriptionFlags(userId),
    billingEnabled: () => billing.enabled(),
    directS3Uploads: config.storage.driver === 's3' && config.storage.directUpload,
    version: () => db.version(),
  });
  const spaceLimits = new SpaceLimits(limits);
  const stripeClient = async () => {
    const keys = await stripeGateway.configured();
    return keys ? stripeGateway.client(keys) : null;
  };
  const account = new AccountService(kysely, settings, localizations, sessions, recovery, avatars, drive.facade, auth, {}, billing);
  const admin = createAdmin({
    db: kysely,
    plans: { stripe: stripeClient, catalog: billingRepo },
    subscriptions: { stripe: stripeClient, billing: billingRepo },
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
    files: {
      deleteForeverByIds: (trx, ids) => drive.facade.deleteForeverByIds(trx, ids),
      purgeBytes: (prefixes) => drive.facade.purgeBytes(prefixes),
      fileForSupport: (id) => drive.facade.fileForSupport(id),
    },
    workspaces: {
      deleteWorkspace: async (trx, id) => {
        await drive.facade.trashWorkspace(trx, id);
        await workspacesRepo.delete(trx, id);
      },
    },
    users: {
      sessions,
      startSession: (proof, meta) => auth.startSession(proof, meta),
      sendResetLink: (email) => recovery.sendResetLink(email),
      permissionsOf,
      availableTo: (userId, permissions) => spaceLimits.availableTo(userActor(userId, permissions), userId),
      deleteEntriesOf: (trx, userId) => drive.facade.deleteEntriesOf(trx, userId),
      purgeBytes: (prefixes) => drive.facade.purgeBytes(prefixes),
      removeAvatar: (avatar) => avatars.remove(avatar),
      bootstrapFor: async (userId, language, impersonatorId) => {
        const user = userId === null ? undefined : await users.findById(userId);
        return bootstrap.build(user ? await users.withAccess(user) : null, language, impersonatorId);
      },
      confirm: async (userId, proof) => {
        const caller = await users.findById(userId);
        if (!caller) throw Unauthenticated();
        await account.confirmAccountChange(caller, proof);
      },
    },
  });
  const storeChecks = createStoreChecks(db, config.storageDir, drive.disk);
  const uploads = new UploadsService({ settings, drive: drive.facade, quota: drive.quota, resolveScope: drive.scope, tusFiles });
  const s3Uploads = new S3DirectUploads({
    disk: config.storage.driver === 's3' && config.storage.directUpload ? disks.s3 : null,
    urlExpiresSeconds: config.storage.driver === 's3' ? config.storage.urlExpiresSeconds : 0,
    uploads,
    drive: drive.facade,
    quota: drive.quota,
    repo: new S3UploadsRepository(kysely),
    resolveScope: drive.scope,
    committedUnder: (prefix) => storeChecks.storage.committedUnder(prefix),
  });
  const webdav = new WebDavService({
    drive: drive.facade,
    uploads,
    scope: drive.scope,
    workspaces: (actor) => workspaces.list(actor),
    repo: new WebDavRepository(kysely),
    siteUrl,
  });
  const documents = new DocumentsService({ drive: drive.facade, resolveScope: drive.scope });
  const tus = createTusServer(uploads, tusFiles, shared.tusLocker);
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
    accessTokens,
    userTokens,
    mailer,
    rateLimiter,
    auth,
    registration: new RegistrationService(kysely, users, settings),
    recovery,
    avatars,
    account,
    recaptcha: new RecaptchaService(settings),
    manifest: new ManifestService(settings, themes, brandingFiles),
    themes,
    brandingFiles,
    health: new HealthService(db, config.storageDir),
    social: new SocialAccountsService(kysely, users, settings, auth),
    bootstrap,
    bootstrapJson: new BootstrapJson(config.env !== 'production'),
    billing,
    billingWebhooks: new BillingWebhooks(billingRepo, stripeGateway),
    admin,
    drive,
    workspaces,
    sharing: new SharingService(kysely, new SharesRepository(kysely), {
      findUserByEmail: (email) => users.findByEmail(email),
      sharerName: async (userId) => {
        const user = await users.findById(userId);
        return user ? displayName(user) : 'Someone';
      },
      notifyShared: (notice) => fileEntryShared(notifier, notice),
      countRecipients: (userId, people) => consume(rateLimiter, { key: `shares:${userId}`, max: SHARE_RECIPIENTS_PER_HOUR, windowMs: HOUR_MS }, people),
    }),
    shareLinks: new ShareLinksService(kysely, shareLinksRepo, { hashPassword, appUrl: siteUrl }),
    shareLinkVisitors: new ShareLinkVisitors(kysely, shareLinksRepo, {
      appKey: () => settings.appKey(),
      permissionsOf,
      ownerName: async (userId) => {
        const user = await users.findById(userId);
        return user ? displayName(user) : null;
      },
      checkPassword: (limits, compare) => passwordChecks.check(limits, compare),
      verifyPassword,
      scope: (actor) => drive.scope(actor, null),
      list: (actor, scope, query) => drive.listing.list(actor, scope, query),
      present: (actor, ids) => presentByIds(kysely, actor, ids),
      download: (actor, hashes, onError) => drive.files.download(actor, hashes, onError),
      openable: (actor, hash) => drive.files.openable(actor, hash),
      preview: (actor, hash) => drive.files.preview(actor, hash),
    }),
    jobs,
    notificationBus,
    notifier,
    notifications: new NotificationsService(notificationsRepo, notificationBus, pushRules, channelOn),
    vapidPublicKey: async () => (await vapid()).publicKey,
    uploads,
    webdav,
    /** A token's user's permissions for WebDAV, or null when the user is gone. */
    webdavPermissionsOf: async (userId: number) => {
      const user = await users.findById(userId);
      return user ? (await users.withAccess(user)).permissions : null;
    },
    documents,
    menus,
    customPages: new CustomPagesService(customPagesRepo, async () => {
      const name = await settings.get('branding.site_name');
      return { name: typeof name === 'string' ? name : '', url: config.appUrl };
    }),
    tusFiles,
    tus,
    /** Start-up recovery, housekeeping and the doctor's checks of the database against the disk. */
    storeChecks,
    /** Rate limits, broadcast, jobs and tus locks: in-process or in Redis (scale-out.ts); closed with the app. */
    shared,
    broadcast: shared.broadcast,
    s3Uploads,
  };
}

export type Services = ReturnType<typeof createServices>;
