import { ValidationError } from '../../lib/errors.js';
import type { NotificationBus } from './bus.js';
import { channelsFor } from './notifier.js';
import { endpointProblem, type EndpointRules } from './push.js';
import type { NotificationsRepository } from './repository.js';
import { allChannelsOn, CHANNELS, NOTIFICATION_TYPES, type ChannelSwitch, PREFERENCE_GROUPS, type ChannelMap, type NotificationType } from './types.js';

export const NOTIFICATIONS_PER_PAGE = 30;

const typeByNotifId = new Map(Object.entries(NOTIFICATION_TYPES).map(([type, def]) => [def.notifId as string, type as NotificationType]));

/** The §7 notification calls for the signed-in user: their own rows only. */
export class NotificationsService {
  constructor(
    private readonly repo: NotificationsRepository,
    private readonly bus: NotificationBus,
    private readonly pushRules: EndpointRules,
    private readonly channelOn: ChannelSwitch = allChannelsOn,
    /** Which of these workspace invites are still open (not joined, declined, revoked or expired). */
    private readonly openInvites: (ids: string[]) => Promise<Set<string>> = async (ids) => new Set(ids),
  ) {}

  async list(userId: number, page: number) {
    const { rows, total } = await this.repo.page(userId, page, NOTIFICATIONS_PER_PAGE);
    // An invitation already answered keeps its text but loses Join and Decline: asking again could only fail.
    const inviteIds = rows.flatMap((row) => (row.data.inviteId ? [row.data.inviteId] : []));
    const open = inviteIds.length ? await this.openInvites(inviteIds) : new Set<string>();
    return {
      data: rows.map((row) => {
        if (!row.data.inviteId || open.has(row.data.inviteId)) return row;
        const { inviteId: _answered, buttonActions: _buttons, ...rest } = row.data;
        return { ...row, data: { ...rest, mainAction: { ...rest.mainAction, action: '/drive' } } };
      }),
      current_page: page,
      per_page: NOTIFICATIONS_PER_PAGE,
      total,
      last_page: Math.max(1, Math.ceil(total / NOTIFICATIONS_PER_PAGE)),
    };
  }

  unreadCount(userId: number): Promise<number> {
    return this.repo.unreadCount(userId);
  }

  /** Ids that are not the user's, or already read, change nothing. */
  async markAsRead(userId: number, ids: string[]): Promise<{ unreadCount: number }> {
    const changed = await this.repo.markRead(userId, ids);
    const unreadCount = await this.repo.unreadCount(userId);
    if (changed) await this.bus.publish(userId, { unreadCount });
    return { unreadCount };
  }

  async subscriptions(userId: number) {
    const saved = await this.repo.preferences(userId);
    return {
      // A channel the admin switched off is not offered.
      available_channels: (await Promise.all(CHANNELS.map(async (c) => ((await this.channelOn(c)) ? [c] : [])))).flat(),
      subscriptions: PREFERENCE_GROUPS.map((group) => ({
        group_name: group.group_name,
        subscriptions: group.types.map((type) => ({ notif_id: NOTIFICATION_TYPES[type].notifId, name: NOTIFICATION_TYPES[type].name })),
      })),
      user_selections: [...typeByNotifId].map(([notifId, type]) => ({ notif_id: notifId, channels: channelsFor(saved.get(notifId), type) })),
    };
  }

  /** Unknown notif_ids are refused (the schema refuses unknown channels). */
  async updateSubscriptions(userId: number, selections: { notif_id: string; channels: Partial<ChannelMap> }[]): Promise<void> {
    const unknown = selections.findIndex((s) => !typeByNotifId.has(s.notif_id));
    if (unknown >= 0) throw ValidationError.field(`selections.${unknown}.notif_id`, 'This notification type does not exist.');
    const saved = await this.repo.preferences(userId);
    await this.repo.savePreferences(
      userId,
      selections.map((s) => {
        const current = channelsFor(saved.get(s.notif_id), typeByNotifId.get(s.notif_id)!);
        return { notif_id: s.notif_id, channels: { ...current, ...s.channels } };
      }),
    );
  }

  async subscribePush(userId: number, subscription: { endpoint: string; keys: { p256dh: string; auth: string } }, userAgent: string | null): Promise<void> {
    const problem = await endpointProblem(subscription.endpoint, this.pushRules);
    if (problem) throw ValidationError.field('endpoint', problem);
    await this.repo.savePushSubscription(userId, { endpoint: subscription.endpoint, ...subscription.keys, userAgent: userAgent?.slice(0, 512) ?? null });
  }

  unsubscribePush(userId: number, endpoint: string): Promise<boolean> {
    return this.repo.deletePushSubscription(userId, endpoint);
  }
}
