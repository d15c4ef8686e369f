import type { Lines, MessageValues } from '../../lib/i18n.js';
import { translate } from '../../lib/i18n.js';
import { notificationMessage } from '../../mail/templates.js';
import type { MailMessage } from '../../mail/mailer.js';
import type { NotificationBus } from './bus.js';
import { sendPush, type EndpointRules, type VapidKeys } from './push.js';
import type { NotificationsRepository } from './repository.js';
import {
  allChannelsOn,
  assertSafe,
  NOTIFICATION_TYPES,
  type Channel,
  type ChannelMap,
  type ChannelSwitch,
  type NotificationData,
  type NotificationType,
} from './types.js';

/** A web push to send: plain data, so the job can run in any process. */
export interface PushJob {
  userId: number;
  notificationId: string;
  data: NotificationData;
}

export type Translate = (template: string, values?: MessageValues) => string;

/** What a notification says, built in its recipient's language. */
export type NotificationBuilder = (t: Translate) => NotificationData;

export interface NotifierDeps {
  repo: NotificationsRepository;
  bus: NotificationBus;
  /** Queues a background job (lib/background.ts): the mail goes out, or the push is sent by `deliverPush`. */
  queue: { mail(message: MailMessage): Promise<void>; push(job: PushJob): Promise<void> };
  recipient(userId: number): Promise<{ email: string; lines: Lines | null } | undefined>;
  siteName(): Promise<string>;
  /** The site's public address (read on use: an admin may change it). */
  appUrl: () => Promise<string>;
  vapid(): Promise<VapidKeys>;
  /** Who push services can contact about our pushes: an https: or mailto: URL (RFC 8292). */
  vapidSubject: string;
  pushRules: EndpointRules;
  /** The admin's channel switches: a channel switched off is not sent, whatever the user chose. */
  channelOn?: ChannelSwitch;
}

/** The channels a user gets a type on: their saved choice, else the type's default. */
export function channelsFor(saved: Partial<ChannelMap> | undefined, type: NotificationType): ChannelMap {
  const defaults = NOTIFICATION_TYPES[type].defaults;
  return { email: saved?.email ?? defaults.email, browser: saved?.browser ?? defaults.browser };
}

/**
 * The one way to notify someone: the in-app row is stored and open pages are
 * told at once; email and web push, as the user chose, go out in the
 * background so the request that caused them never waits on a mail server
 * or a push service.
 */
export class Notifier {
  constructor(private readonly deps: NotifierDeps) {}

  /**
   * `options.mail` replaces the generic email for types that have their own
   * message (a workspace invite's, with its sign-in link); it still goes only
   * when the user keeps the email channel on.
   */
  async notify(
    userId: number,
    type: NotificationType,
    build: NotificationBuilder,
    options: { mail?: (to: string) => Promise<MailMessage> } = {},
  ): Promise<string | null> {
    const recipient = await this.deps.recipient(userId);
    if (!recipient) return null;
    const data = assertSafe(build((template, values) => translate(recipient.lines, template, values)));
    const id = await this.deps.repo.insert(userId, type, data);
    await this.deps.bus.publish(userId, { unreadCount: await this.deps.repo.unreadCount(userId) });
    const channels = channelsFor((await this.deps.repo.preferences(userId)).get(NOTIFICATION_TYPES[type].notifId), type);
    // Built now (the recipient's language and the site's name are at hand) and queued as a finished message.
    // A channel the admin switched off site-wide is neither offered nor sent.
    const channelOn = this.deps.channelOn ?? allChannelsOn;
    for (const channel of Object.keys(channels) as Channel[]) {
      if (!channels[channel] || !(await channelOn(channel))) continue;
      if (channel === 'email') await this.deps.queue.mail(options.mail ? await options.mail(recipient.email) : await this.email(recipient.email, data));
      if (channel === 'browser') await this.deps.queue.push({ userId, notificationId: id, data });
    }
    return id;
  }

  private async email(to: string, data: NotificationData): Promise<MailMessage> {
    const url = new URL(data.mainAction.action, `${await this.deps.appUrl()}/`).toString();
    return notificationMessage(to, await this.deps.siteName(), {
      lines: data.lines.map((line) => line.content),
      action: { label: data.mainAction.label, url },
    });
  }

  /** The push job's work (run by whichever process takes the job). */
  async deliverPush({ userId, notificationId: id, data }: PushJob): Promise<void> {
    const subscriptions = await this.deps.repo.pushSubscriptions(userId);
    if (!subscriptions.length) return;
    const [title, ...rest] = data.lines.map((line) => line.content);
    const payload = JSON.stringify({
      id,
      title: title ?? (await this.deps.siteName()),
      body: rest.join('\n'),
      icon: '/icons/icon-192.png',
      url: data.mainAction.action,
      tag: id,
      // Read at delivery, so the worker can set the installed app's badge without asking the server.
      unreadCount: await this.deps.repo.unreadCount(userId),
    });
    const vapid = await this.deps.vapid();
    const failures: unknown[] = [];
    for (const subscription of subscriptions) {
      try {
        if ((await sendPush(subscription, payload, vapid, this.deps.vapidSubject, this.deps.pushRules)) === 'gone')
          await this.deps.repo.deletePushSubscriptionById(subscription.id);
      } catch (error) {
        failures.push(error);
      }
    }
    // One browser's push service being down must not resend to the others: only a total failure retries.
    if (failures.length && failures.length === subscriptions.length) throw failures[0];
  }
}
