import { readCookie } from '../../api/cookies';
import type { QueueItem } from './engine';
import type { HttpDeps } from './http';
import type { QueueCommand, QueueEvent, QueueProtocol, SessionMessage } from './protocol';

// The page's one way to talk to an offline queue (uploads, document saves,
// whatever comes next): the worker's queue host when there is one
// (production), else the queue's engine in this page (dev server, browsers
// without workers). It is the only code in the page that posts to the worker
// (tests/web/offline/worker-messages.test.ts holds it to that).
//
// What a queue's page side needs, written once: who runs the queue, the
// session message before every kick, Background Sync, the keep-alive, the
// queue's BroadcastChannel, and the user's items read from IndexedDB first
// and kept live from the channel. Pages only ever add items; every other
// change goes through the runner, the one writer.

/** The queue's engine as the page runs it when no worker does. */
export interface PageEngine<Command> {
  setUser(userId: string | null): Promise<void>;
  /** Settles when the command's work is done (a kick: when the queue has run dry). */
  apply(command: Command): Promise<void>;
  run(): Promise<void>;
}

export interface ClientItem extends QueueItem {
  createdAt: number;
}

export interface QueueClientSpec<Command extends QueueCommand, Event extends QueueEvent, Item extends ClientItem> {
  protocol: QueueProtocol<Command, Event>;
  /** The first read: what the device holds for this user before any event arrives. */
  load(userId: string): Promise<Item[]>;
  /** What an event changes: items stored (new or replaced) and ids removed. */
  changes(event: Event): { items: Item[]; removed: string[] };
  /** The queue's engine in this page, reporting through `notify`. */
  createPageEngine(http: HttpDeps, notify: (event: Event) => void): PageEngine<Command>;
  /** Where the active worker is found; tests pass their own. */
  workerRegistration?: () => Promise<WorkerRegistration | null>;
}

/** The part of a ServiceWorkerRegistration the client uses. */
export interface WorkerRegistration {
  active: Pick<ServiceWorker, 'postMessage'> | null;
  /** Background Sync is not in TypeScript's DOM lib (it is Chromium-only). */
  sync?: { register: (tag: string) => Promise<void> };
}

interface Runner<Command> {
  session(message: SessionMessage): Promise<void>;
  send(command: Command): Promise<void>;
  /** Asks for Background Sync, so the browser wakes the worker when the network returns. */
  requestSync(): Promise<void>;
}

const READY_TIMEOUT = 5000;
// A browser stops an idle worker after ~30 s: while work waits, a session
// message this often keeps it alive (sw/queues/host.ts holds each message ~25 s).
const KEEP_ALIVE = 20_000;

export class QueueClient<Command extends QueueCommand, Event extends QueueEvent, Item extends ClientItem> {
  private items = new Map<string, Item>();
  private snapshot: Item[] = [];
  private readonly listeners = new Set<() => void>();
  private readonly itemListeners = new Set<(item: Item, previous: Item | undefined) => void>();
  private readonly eventListeners = new Set<(event: Event) => void>();
  private userId: string | null = null;
  private loaded: Promise<void> | null = null;
  private channel: BroadcastChannel | null = null;
  private listening = false;
  private runner: Promise<Runner<Command>> | null = null;
  private keepAlive: ReturnType<typeof setInterval> | null = null;

  constructor(private readonly spec: QueueClientSpec<Command, Event, Item>) {}

  /** The user the client last connected for. */
  user(): string | null {
    return this.userId;
  }

  /** The signed-in user's items, oldest first (a new array on every change, for useSyncExternalStore). */
  getItems = (): Item[] => this.snapshot;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Every stored or replaced item of the user, with what this page held before. */
  onItem = (listener: (item: Item, previous: Item | undefined) => void): (() => void) => {
    this.itemListeners.add(listener);
    return () => this.itemListeners.delete(listener);
  };

  /** Every event of the queue this page hears (its own included), after its items have changed. */
  onEvent = (listener: (event: Event) => void): (() => void) => {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  };

  /**
   * Called by every user of the queue; the first call per user reads the
   * queue from IndexedDB, then kicks the runner. Resolves once the read is in.
   */
  connect(userId: string): Promise<void> {
    if (this.userId === userId && this.loaded) return this.loaded;
    this.userId = userId;
    this.items = new Map();
    this.listen();
    this.getRunner();
    const loaded = this.firstRead(userId);
    this.loaded = loaded;
    // Whoever waits for the read (a document's first paint) does not wait for the worker too.
    void loaded.then(() => (this.userId === userId ? this.kick() : undefined)).catch(() => undefined);
    return loaded;
  }

  /**
   * Items the page has just stored: this page and the others hear of them at
   * once, the browser is asked to wake the worker when the network returns,
   * and the runner is kicked.
   */
  async added(events: Event[]): Promise<void> {
    for (const event of events) {
      this.receive(event);
      this.channel?.postMessage(event);
    }
    const runner = await this.getRunner();
    await runner.requestSync();
    await this.kick();
  }

  /** The session first (the worker sends only this user's items), then a nudge for the queue. */
  async kick(): Promise<void> {
    const runner = await this.getRunner();
    await runner.session({ type: 'session', userId: this.userId, xsrfToken: readCookie('XSRF-TOKEN') });
    await runner.send(this.spec.protocol.kick);
  }

  async send(command: Command): Promise<void> {
    const runner = await this.getRunner();
    await runner.send(command);
  }

  private async firstRead(userId: string): Promise<void> {
    const stored = await this.spec.load(userId);
    if (this.userId !== userId) return;
    // An event heard while the read ran is at least as new as what was read.
    for (const item of stored) {
      const heard = this.items.get(item.id);
      if (!heard || heard.updatedAt < item.updatedAt) this.items.set(item.id, item);
    }
    this.publish();
  }

  private listen(): void {
    if (this.listening) return;
    this.listening = true;
    if (typeof BroadcastChannel !== 'undefined') {
      this.channel = new BroadcastChannel(this.spec.protocol.channel);
      this.channel.onmessage = (message: MessageEvent<unknown>) => {
        if (this.spec.protocol.isEvent(message.data)) this.receive(message.data);
      };
    }
    window.addEventListener('online', () => void this.kick());
  }

  private getRunner(): Promise<Runner<Command>> {
    this.runner ??= this.connectRunner();
    return this.runner;
  }

  private async connectRunner(): Promise<Runner<Command>> {
    const registration = await (this.spec.workerRegistration ?? readyRegistration)();
    const worker = registration?.active;
    if (registration && worker) {
      const { syncTag } = this.spec.protocol;
      return {
        session: (message) => Promise.resolve(worker.postMessage(message)),
        send: (command) => Promise.resolve(worker.postMessage(command)),
        requestSync: async () => {
          try {
            await registration.sync?.register(syncTag);
          } catch {
            // Not allowed here (permission, private mode): `online` and page kicks still run it.
          }
        },
      };
    }
    return this.pageRunner();
  }

  private pageRunner(): Runner<Command> {
    const engine = this.spec.createPageEngine(
      { fetch: (input, init) => window.fetch(input, init), origin: window.location.origin, getXsrfToken: () => Promise.resolve(readCookie('XSRF-TOKEN')) },
      (event) => {
        // A channel does not deliver to itself: this page hears it directly.
        this.receive(event);
        this.channel?.postMessage(event);
      },
    );
    window.addEventListener('online', () => void engine.run());
    const kick = this.spec.protocol.kick.type;
    return {
      session: async (message) => {
        await engine.setUser(message.userId);
        void engine.run().catch(() => undefined);
      },
      send: async (command) => {
        // The page answers as soon as the command is taken; a kick's queue run goes on by itself.
        const done = engine.apply(command);
        if (command.type !== kick) await done;
        else void done.catch(() => undefined);
      },
      requestSync: () => Promise.resolve(),
    };
  }

  private receive(event: Event): void {
    const { items, removed } = this.spec.changes(event);
    for (const id of removed) this.items.delete(id);
    const changed: [Item, Item | undefined][] = [];
    for (const item of items) {
      if (item.userId !== this.userId) continue;
      changed.push([item, this.items.get(item.id)]);
      this.items.set(item.id, item);
    }
    this.publish();
    for (const [item, previous] of changed) for (const listener of this.itemListeners) listener(item, previous);
    for (const listener of this.eventListeners) listener(event);
  }

  private publish(): void {
    this.snapshot = [...this.items.values()].sort((a, b) => a.createdAt - b.createdAt);
    this.updateKeepAlive();
    for (const listener of this.listeners) listener();
  }

  /** While anything waits, a kick every 20 s keeps the worker from idling out. */
  private updateKeepAlive(): void {
    const busy = this.snapshot.some((item) => item.status === 'pending' || item.status === 'inProgress');
    if (busy && !this.keepAlive) this.keepAlive = setInterval(() => void this.kick(), KEEP_ALIVE);
    if (!busy && this.keepAlive) {
      clearInterval(this.keepAlive);
      this.keepAlive = null;
    }
  }
}

async function readyRegistration(): Promise<WorkerRegistration | null> {
  if (!import.meta.env.PROD || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return null;
  const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), READY_TIMEOUT));
  return Promise.race([navigator.serviceWorker.ready, timeout]);
}
