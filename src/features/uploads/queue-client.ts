import { readCookie } from '../../api/cookies';
import { uploadsDatabase } from '../../offline/queues/uploads/db';
import { isUploadEvent, UPLOADS_CHANNEL } from '../../offline/queues/uploads/protocol';
import type { UploadCommand, UploadEvent } from '../../offline/queues/uploads/protocol';
import type { UploadBlob, UploadItem } from '../../offline/queues/uploads/types';
import { connectRunner } from './queue-runner';
import type { QueueRunner } from './queue-runner';

// The page's view of the queue: items of the signed-in user, live from the
// worker's broadcasts over a first read of IndexedDB. Pages only ever add
// items; every other change goes through the runner, the one writer.
const KEEP_ALIVE = 20_000;

type Listener = () => void;

export class UploadQueueClient {
  private items = new Map<string, UploadItem>();
  private snapshot: UploadItem[] = [];
  private readonly listeners = new Set<Listener>();
  private userId: string | null = null;
  private channel: BroadcastChannel | null = null;
  private runner: Promise<QueueRunner> | null = null;
  private keepAlive: ReturnType<typeof setInterval> | null = null;
  private readonly completedListeners = new Set<(item: UploadItem) => void>();

  getItems = (): UploadItem[] => this.snapshot;

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Tells whoever shows server data that an upload landed (the hook refreshes its queries). */
  onCompleted = (listener: (item: UploadItem) => void): (() => void) => {
    this.completedListeners.add(listener);
    return () => this.completedListeners.delete(listener);
  };

  /** Called by every hook; the first call per user loads the queue and nudges the runner. */
  async connect(userId: string): Promise<void> {
    if (this.userId === userId && this.runner) return;
    this.userId = userId;
    if (!this.channel && typeof BroadcastChannel !== 'undefined') {
      this.channel = new BroadcastChannel(UPLOADS_CHANNEL);
      this.channel.onmessage = (message: MessageEvent<unknown>) => {
        if (isUploadEvent(message.data)) this.apply(message.data);
      };
      window.addEventListener('online', () => void this.kick());
    }
    this.runner ??= connectRunner((event) => this.apply(event), this.channel);
    const stored = await uploadsDatabase().items.where('userId').equals(userId).toArray();
    this.items = new Map(stored.map((item) => [item.id, item]));
    this.publish();
    await this.kick();
  }

  /** New items go to IndexedDB first: from then on nothing can lose them. */
  async add(items: UploadItem[], blobs: UploadBlob[]): Promise<void> {
    const db = uploadsDatabase();
    await db.transaction('rw', db.items, db.blobs, async () => {
      await db.blobs.bulkAdd(blobs);
      await db.items.bulkAdd(items);
    });
    for (const item of items) {
      this.apply({ type: 'item', item });
      this.channel?.postMessage({ type: 'item', item } satisfies UploadEvent);
    }
    const runner = await this.getRunner();
    await runner.requestSync();
    await this.kick();
  }

  cancel = (id: string) => this.send({ type: 'uploads:cancel', id });
  retry = (id: string) => this.send({ type: 'uploads:retry', id });
  clearCompleted = () => (this.userId ? this.send({ type: 'uploads:clear', userId: this.userId }) : Promise.resolve());

  /** The session first (the worker sends only this user's items), then a nudge for the queue. */
  private async kick(): Promise<void> {
    const runner = await this.getRunner();
    await runner.session({ type: 'session', userId: this.userId, xsrfToken: readCookie('XSRF-TOKEN') });
    await runner.send({ type: 'uploads:kick' });
  }

  private async send(command: UploadCommand): Promise<void> {
    const runner = await this.getRunner();
    await runner.send(command);
  }

  private getRunner(): Promise<QueueRunner> {
    this.runner ??= connectRunner((event) => this.apply(event), this.channel);
    return this.runner;
  }

  private apply(event: UploadEvent): void {
    if (event.type === 'removed') {
      for (const id of event.ids) this.items.delete(id);
    } else {
      if (event.item.userId !== this.userId) return;
      const previous = this.items.get(event.item.id);
      this.items.set(event.item.id, event.item);
      if (event.item.status === 'completed' && previous && previous.status !== 'completed') this.completed(event.item);
    }
    this.publish();
  }

  private completed(item: UploadItem): void {
    for (const listener of this.completedListeners) listener(item);
  }

  private publish(): void {
    this.snapshot = [...this.items.values()].sort((a, b) => a.createdAt - b.createdAt);
    this.updateKeepAlive();
    for (const listener of this.listeners) listener();
  }

  /** While anything is queued, a message every 20 s keeps the worker from idling out. */
  private updateKeepAlive(): void {
    const busy = this.snapshot.some((item) => item.status === 'pending' || item.status === 'inProgress');
    if (busy && !this.keepAlive) this.keepAlive = setInterval(() => void this.kick(), KEEP_ALIVE);
    if (!busy && this.keepAlive) {
      clearInterval(this.keepAlive);
      this.keepAlive = null;
    }
  }
}

export const uploadQueue = new UploadQueueClient();
