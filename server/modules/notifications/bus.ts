import { EventEmitter } from 'node:events';

export interface UnreadEvent {
  unreadCount: number;
}

/**
 * Tells open pages that a user's unread count changed. In-process today (one
 * server process); several processes would put Redis pub/sub behind the same
 * two methods.
 */
export interface NotificationBus {
  publish(userId: number, event: UnreadEvent): void;
  subscribe(userId: number, listener: (event: UnreadEvent) => void): () => void;
}

export class InProcessBus implements NotificationBus {
  private readonly emitter = new EventEmitter();

  constructor() {
    // One listener per open tab; a busy server has many.
    this.emitter.setMaxListeners(0);
  }

  publish(userId: number, event: UnreadEvent): void {
    this.emitter.emit(String(userId), event);
  }

  subscribe(userId: number, listener: (event: UnreadEvent) => void): () => void {
    this.emitter.on(String(userId), listener);
    return () => this.emitter.off(String(userId), listener);
  }
}
