import type { Broadcast, JsonValue } from '../../lib/broadcast.js';

export interface UnreadEvent {
  unreadCount: number;
}

/**
 * Tells open pages that a user's unread count changed, in whichever process
 * their stream is open: a topic per user on the site's broadcast (in-process
 * by default, Redis pub/sub in scale-out mode; see lib/broadcast.ts).
 */
export interface NotificationBus {
  /** Best effort: the notification is stored either way, so a lost live update only waits for the next. */
  publish(userId: number, event: UnreadEvent): Promise<void>;
  /** Resolves once later events reach `listener`; answers how to stop. */
  subscribe(userId: number, listener: (event: UnreadEvent) => void): Promise<() => void>;
}

const isUnreadEvent = (message: JsonValue): message is { unreadCount: number } =>
  typeof message === 'object' && message !== null && !Array.isArray(message) && typeof message.unreadCount === 'number';

export class BroadcastBus implements NotificationBus {
  constructor(
    private readonly broadcast: Broadcast,
    private readonly log: { warn(obj: object, msg: string): void },
  ) {}

  async publish(userId: number, event: UnreadEvent): Promise<void> {
    try {
      await this.broadcast.publish(topicOf(userId), { unreadCount: event.unreadCount });
    } catch (error) {
      this.log.warn({ err: error, userId }, 'live unread count not sent');
    }
  }

  subscribe(userId: number, listener: (event: UnreadEvent) => void): Promise<() => void> {
    return this.broadcast.subscribe(topicOf(userId), (message) => {
      if (isUnreadEvent(message)) listener({ unreadCount: message.unreadCount });
    });
  }
}

const topicOf = (userId: number) => `notifications:${userId}`;
