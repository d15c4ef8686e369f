import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import type { Broadcast } from '../../lib/broadcast.js';
import { API_PREFIX, moduleRoutes } from '../../lib/routes.js';
import type { MailMessage } from '../../mail/mailer.js';
import type { LocalizationsService } from '../localizations/service.js';
import type { SettingsService } from '../settings/service.js';
import type { UsersRepository } from '../users/repository.js';
import { BroadcastBus, type NotificationBus } from './bus.js';
import { Notifier, type NotifierDeps, type PushJob } from './notifier.js';
import { generateVapidKeys } from './push.js';
import { NotificationsRepository } from './repository.js';
import { notificationRoutes } from './routes.js';
import { NotificationsService } from './service.js';
import type { ChannelSwitch } from './types.js';

export interface NotificationsModuleDeps {
  db: Kysely<Database>;
  broadcast: Broadcast;
  log: { warn(obj: object, msg: string): void };
  settings: Pick<SettingsService, 'get' | 'vapidKeys'>;
  users: Pick<UsersRepository, 'findById'>;
  localizations: Pick<LocalizationsService, 'resolve' | 'lines'>;
  queue: { mail(message: MailMessage): Promise<void>; push(job: PushJob): Promise<void> };
  siteName(): Promise<string>;
  appUrl(): Promise<string>;
  /** APP_URL, MAIL_FROM and whether push endpoints on loopback are allowed (tests). */
  config: { appUrl: string; mail: { from: string }; pushAllowLoopback: boolean };
  /** Which of these workspace invites are still open (not joined, declined, revoked or expired). */
  openInvites: (ids: string[]) => Promise<Set<string>>;
}

/**
 * Who push services may contact about our pushes (RFC 8292): the site itself when it is served over https,
 * else the address mail comes from (`Drive <drive@example.com>` gives `mailto:drive@example.com`).
 */
export function vapidSubject(appUrl: string, mailFrom: string): string {
  return appUrl.startsWith('https:') ? appUrl : `mailto:${/<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom}`;
}

/** A recipient's address and lines: their language, else the site's default language, else none (English). */
export function recipients(deps: Pick<NotificationsModuleDeps, 'users' | 'settings' | 'localizations'>): NotifierDeps['recipient'] {
  return async (userId) => {
    const user = await deps.users.findById(userId);
    if (!user) return undefined;
    const fallback = await deps.settings.get('i18n.default_localization');
    const found = await deps.localizations.resolve([user.language, typeof fallback === 'string' ? fallback : null]);
    return { email: user.email, lines: found ? await deps.localizations.lines(found.id) : null };
  };
}

/** The admin's channel switches (`notifications.channels.*`): on unless switched off. */
export const channelSwitch =
  (settings: Pick<SettingsService, 'get'>): ChannelSwitch =>
  async (channel) =>
    (await settings.get(`notifications.channels.${channel}`)) !== false;

/** In-app notifications, their live stream, and email and push deliveries through the job queue. */
export function createNotifications(deps: NotificationsModuleDeps) {
  const repo = new NotificationsRepository(deps.db);
  const bus: NotificationBus = new BroadcastBus(deps.broadcast, deps.log);
  const pushRules = { allowLoopback: deps.config.pushAllowLoopback };
  const channelOn = channelSwitch(deps.settings);
  const vapid = () => deps.settings.vapidKeys(generateVapidKeys);
  const notifier = new Notifier({
    repo,
    bus,
    queue: deps.queue,
    recipient: recipients(deps),
    siteName: deps.siteName,
    appUrl: deps.appUrl,
    vapid,
    vapidSubject: vapidSubject(deps.config.appUrl, deps.config.mail.from),
    pushRules,
    channelOn,
  });
  const notifications = new NotificationsService(repo, bus, pushRules, channelOn, deps.openInvites);
  const vapidPublicKey = async () => (await vapid()).publicKey;
  return {
    repo,
    bus,
    notifier,
    notifications,
    vapidPublicKey,
    routes: moduleRoutes(API_PREFIX, notificationRoutes, { notifications, notificationBus: bus, vapidPublicKey }),
  };
}
