import { isSessionMessage, queueOf, type QueueCommand } from '../../src/offline/queues/protocol';
import type { SessionStore } from '../../src/offline/queues/session';

// What the host needs of the worker's global scope, and no more, so that it
// runs under test with a plain EventTarget standing in for the worker.
interface WaitingEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface MessageLikeEvent extends WaitingEvent {
  readonly data: unknown;
}
/** Background Sync is not in TypeScript's worker lib (it is Chromium-only). */
interface SyncLikeEvent extends WaitingEvent {
  readonly tag: string;
}
export interface HostScope {
  addEventListener(type: 'message' | 'sync' | 'periodicsync' | 'online', listener: (event: Event) => void): void;
  /** The Cookie Store API, where the browser has it. */
  cookieStore?: { get(name: string): Promise<{ value?: string } | null | undefined> };
}

/** What a queue brings to the host: its name (the prefix of its commands), its sync tag and its work. */
export interface HostedQueue<Command extends QueueCommand = QueueCommand> {
  name: string;
  syncTag: string;
  /** Which messages are this queue's commands (its protocol's guard): anything else is ignored. */
  isCommand(data: unknown): data is Command;
  /** One command from a page (`<name>:<verb>`); settles when its work is done. */
  apply(command: Command): Promise<void>;
  /** Works through what waits; resolves when nothing more can start now. */
  run(): Promise<void>;
  hasWaiting(): Promise<boolean>;
  /** The Periodic Background Sync tag it refreshes on (installed apps only), with what it does then. */
  periodic?: { tag: string; refresh(): Promise<void> };
}

/** A queue as the host keeps it: its commands checked by its own guard before they reach it. */
interface Registered extends Omit<HostedQueue, 'isCommand' | 'apply'> {
  dispatch(data: unknown): Promise<void>;
}

export interface QueueSession extends SessionStore {
  /** The XSRF token to echo: the cookie where the worker can read it, else what the page last said. */
  xsrfToken(): Promise<string | null>;
}

// A browser stops an event that runs for minutes, and stops an idle worker
// after ~30 s. Each event therefore holds the worker for a bounded time; open
// pages send their session every 20 s while work waits, so the worker lives as
// long as they need it. Whatever is cut short resumes on the next trigger.
const MESSAGE_HOLD = 25_000;
const SYNC_HOLD = 4 * 60_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The one owner of the worker's events for every offline queue (Workbox's
 * background-sync Queue, generalised): the message router, Background Sync
 * dispatch, the `online` and start-up triggers, and the session. A queue
 * registers itself and never listens to the worker's events on its own.
 */
export class QueueHost {
  private readonly queues = new Map<string, Registered>();
  private pageToken: string | null = null;
  readonly session: QueueSession;

  constructor(
    private readonly scope: HostScope,
    store: SessionStore,
  ) {
    this.session = {
      userId: () => store.userId(),
      setUser: (userId) => store.setUser(userId),
      xsrfToken: async () => (await readCookie(scope, 'XSRF-TOKEN')) ?? this.pageToken,
    };
  }

  register<Command extends QueueCommand>(queue: HostedQueue<Command>): void {
    if (this.queues.has(queue.name)) throw new Error(`Queue ${queue.name} is registered twice`);
    this.queues.set(queue.name, {
      name: queue.name,
      syncTag: queue.syncTag,
      dispatch: (data) => (queue.isCommand(data) ? queue.apply(data) : Promise.resolve()),
      run: () => queue.run(),
      hasWaiting: () => queue.hasWaiting(),
      periodic: queue.periodic,
    });
  }

  /** Starts listening; every registered queue carries on with what it left (start-up trigger). */
  start(): void {
    this.scope.addEventListener('message', (event) => this.onMessage(event as MessageLikeEvent));
    this.scope.addEventListener('sync', (event) => this.onSync(event as SyncLikeEvent));
    this.scope.addEventListener('periodicsync', (event) => this.onPeriodicSync(event as SyncLikeEvent));
    // The worker lib has no typed 'online' event on the global scope, but Chromium fires it.
    this.scope.addEventListener('online', () => void this.runAll());
    void this.runAll();
  }

  private onMessage(event: MessageLikeEvent): void {
    const data: unknown = event.data;
    if (isSessionMessage(data)) {
      this.pageToken = data.xsrfToken ?? this.pageToken;
      event.waitUntil(Promise.race([this.session.setUser(data.userId).then(() => this.runAll()), sleep(MESSAGE_HOLD)]));
      return;
    }
    const queue = this.queues.get(queueOf(data) ?? '');
    if (!queue) return;
    event.waitUntil(Promise.race([queue.dispatch(data), sleep(MESSAGE_HOLD)]));
  }

  private onSync(event: SyncLikeEvent): void {
    const queue = [...this.queues.values()].find((q) => q.syncTag === event.tag);
    if (!queue) return;
    // Rejecting tells the browser to try this sync again later.
    event.waitUntil(
      Promise.race([queue.run(), sleep(SYNC_HOLD)]).then(async () => {
        if (await queue.hasWaiting()) throw new Error(`${queue.name}: work still waiting`);
      }),
    );
  }

  /** Periodic Background Sync (Chromium, installed apps): the queue refreshes within the same bound as a sync. */
  private onPeriodicSync(event: SyncLikeEvent): void {
    const queue = [...this.queues.values()].find((q) => q.periodic?.tag === event.tag);
    if (!queue?.periodic) return;
    event.waitUntil(Promise.race([queue.periodic.refresh(), sleep(SYNC_HOLD)]));
  }

  private async runAll(): Promise<void> {
    await Promise.all([...this.queues.values()].map((queue) => queue.run()));
  }
}

/** The worker cannot read document.cookie; the Cookie Store API can, where it exists. */
async function readCookie(scope: HostScope, name: string): Promise<string | null> {
  try {
    return (await scope.cookieStore?.get(name))?.value ?? null;
  } catch {
    return null;
  }
}
