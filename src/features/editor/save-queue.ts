import { readCookie } from '../../api/cookies';
import { createSaveEngine } from '../../offline/queues/saves/create-engine';
import { savesDatabase } from '../../offline/queues/saves/db';
import { enqueueSave, type SaveEngine } from '../../offline/queues/saves/engine';
import { isSaveEvent, SAVES_CHANNEL, SAVES_SYNC_TAG, type SaveEvent } from '../../offline/queues/saves/protocol';
import type { SaveItem } from '../../offline/queues/saves/types';

// The page's side of the document-save queue: it writes items to IndexedDB
// (from then on nothing loses them) and nudges whoever runs the queue — the
// service worker's queue host in production, else an engine in this page —
// then hears every change on the queue's channel.

type Listener = (item: SaveItem) => void;
const READY_TIMEOUT = 5000;

interface Runner {
  kick(userId: string): Promise<void>;
}

interface SyncRegistration extends ServiceWorkerRegistration {
  sync?: { register: (tag: string) => Promise<void> };
}

async function readyRegistration(): Promise<ServiceWorkerRegistration | null> {
  if (!import.meta.env.PROD || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return null;
  const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), READY_TIMEOUT));
  return Promise.race([navigator.serviceWorker.ready, timeout]);
}

export class SaveQueueClient {
  private readonly listeners = new Set<Listener>();
  private channel: BroadcastChannel | null = null;
  private runner: Promise<Runner> | null = null;

  constructor(private readonly connectRunner: (deliver: (event: SaveEvent) => void) => Promise<Runner> = defaultRunner) {}

  subscribe(listener: Listener): () => void {
    if (!this.channel && typeof BroadcastChannel !== 'undefined') {
      this.channel = new BroadcastChannel(SAVES_CHANNEL);
      this.channel.onmessage = (message: MessageEvent<unknown>) => {
        if (isSaveEvent(message.data)) this.deliver(message.data);
      };
    }
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The newest save of a document on this device, if any. */
  async latest(userId: string, entryId: string): Promise<SaveItem | undefined> {
    const items = await savesDatabase().items.where('entryId').equals(entryId).toArray();
    return items
      .filter((item) => item.userId === userId)
      .sort((a, b) => a.createdAt - b.createdAt || a.updatedAt - b.updatedAt)
      .at(-1);
  }

  async enqueue(item: SaveItem): Promise<SaveItem> {
    const stored = await enqueueSave(savesDatabase(), item);
    this.deliver({ type: 'save', item: stored });
    await this.kick(item.userId);
    return stored;
  }

  async kick(userId: string): Promise<void> {
    this.runner ??= this.connectRunner((event) => this.deliver(event));
    await (await this.runner).kick(userId);
  }

  private deliver(event: SaveEvent): void {
    for (const listener of this.listeners) listener(event.item);
  }
}

async function defaultRunner(deliver: (event: SaveEvent) => void): Promise<Runner> {
  const registration = await readyRegistration();
  const worker = registration?.active;
  if (registration && worker) {
    return {
      kick: async (userId) => {
        worker.postMessage({ type: 'session', userId, xsrfToken: readCookie('XSRF-TOKEN') });
        worker.postMessage({ type: 'saves:kick' });
        try {
          await (registration as SyncRegistration).sync?.register(SAVES_SYNC_TAG);
        } catch {
          // Not allowed here: the worker's `online` trigger and page kicks still run it.
        }
      },
    };
  }
  const channel = typeof BroadcastChannel !== 'undefined' ? new BroadcastChannel(SAVES_CHANNEL) : null;
  const engine: SaveEngine = createSaveEngine(
    { fetch: (input, init) => window.fetch(input, init), origin: window.location.origin, getXsrfToken: () => Promise.resolve(readCookie('XSRF-TOKEN')) },
    (event) => {
      deliver(event);
      channel?.postMessage(event);
    },
  );
  window.addEventListener('online', () => void engine.run());
  return {
    kick: async (userId) => {
      await engine.setUser(userId);
      void engine.run().catch(() => undefined);
    },
  };
}

export const saveQueue = new SaveQueueClient();
