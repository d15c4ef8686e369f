import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type BroadcastListener = (message: JsonValue) => void;

/**
 * Messages to every process of the site, by topic: live updates (the
 * notification bell), and whatever a process keeps in memory and must drop
 * when another process changes it (a cache's invalidation). Delivery is at
 * most once and only to processes listening at the time; nothing is stored.
 *
 * `InProcessBroadcast` is the embedded default (one process); with REDIS_URL
 * `RedisBroadcast` carries the same calls over Redis pub/sub. Services get it
 * as `services.broadcast` (see scale-out.ts).
 */
export interface Broadcast {
  /** Every listener of `topic`, in every process, gets `message` (this process's included). */
  publish(topic: string, message: JsonValue): Promise<void>;
  /** Resolves once what is published from now on reaches `listener`; answers how to stop listening. */
  subscribe(topic: string, listener: BroadcastListener): Promise<() => void>;
  close(): Promise<void>;
}

export class InProcessBroadcast implements Broadcast {
  private readonly emitter = new EventEmitter();

  constructor() {
    // One listener per open page (the bell's stream); a busy server has many.
    this.emitter.setMaxListeners(0);
  }

  async publish(topic: string, message: JsonValue): Promise<void> {
    this.emitter.emit(topic, message);
  }

  async subscribe(topic: string, listener: BroadcastListener): Promise<() => void> {
    this.emitter.on(topic, listener);
    return () => this.emitter.off(topic, listener);
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}

/**
 * Redis pub/sub: one channel per topic, subscribed while this process has a
 * listener for it, on a connection of its own (a subscribed connection can
 * do nothing else). Redis hands a process its own messages back, so local
 * listeners hear them exactly once too.
 */
export class RedisBroadcast implements Broadcast {
  private readonly topics = new Map<string, { listeners: Set<BroadcastListener>; ready: Promise<unknown> }>();

  constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    private readonly prefix: string,
    private readonly log: { warn(obj: object, msg: string): void },
  ) {
    subscriber.on('message', (channel: string, text: string) => {
      const topic = this.topics.get(channel.slice(this.channelPrefix.length));
      if (!topic) return;
      let message: JsonValue;
      try {
        message = JSON.parse(text) as JsonValue;
      } catch (error) {
        this.log.warn({ err: error, channel }, 'broadcast message is not JSON');
        return;
      }
      for (const listener of [...topic.listeners]) listener(message);
    });
  }

  private get channelPrefix(): string {
    return `${this.prefix}broadcast:`;
  }

  async publish(topic: string, message: JsonValue): Promise<void> {
    await this.publisher.publish(this.channelPrefix + topic, JSON.stringify(message));
  }

  async subscribe(topic: string, listener: BroadcastListener): Promise<() => void> {
    let entry = this.topics.get(topic);
    if (!entry) {
      // Commands on one connection run in order, so an UNSUBSCRIBE of a topic's previous listeners that is
      // still under way cannot undo this SUBSCRIBE.
      entry = { listeners: new Set(), ready: this.subscriber.subscribe(this.channelPrefix + topic) };
      this.topics.set(topic, entry);
    }
    entry.listeners.add(listener);
    const current = entry;
    try {
      await current.ready;
    } catch (error) {
      this.drop(topic, current, listener);
      throw error;
    }
    return () => this.drop(topic, current, listener);
  }

  private drop(topic: string, entry: { listeners: Set<BroadcastListener> }, listener: BroadcastListener): void {
    if (!entry.listeners.delete(listener) || entry.listeners.size) return;
    if (this.topics.get(topic) !== entry) return;
    this.topics.delete(topic);
    this.subscriber.unsubscribe(this.channelPrefix + topic).catch((error: unknown) => this.log.warn({ err: error, topic }, 'broadcast unsubscribe failed'));
  }

  async close(): Promise<void> {
    this.topics.clear();
    this.subscriber.disconnect();
  }
}
