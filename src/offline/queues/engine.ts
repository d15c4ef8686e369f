import type { Table } from 'dexie';
import type { SessionStore } from './session';
import { Watchdog } from './watchdog';

// The life of a queued piece of offline work (an upload, a document save),
// whatever it sends: the status machine, parking while the network is away,
// recovery of attempts a stopped worker left behind, and one ending per attempt.

export type QueueStatus = 'pending' | 'inProgress' | 'completed' | 'failed' | 'aborted';

export interface QueueItem {
  id: string;
  /** The signed-in user who queued it: another user's session never sends it. */
  userId: string;
  status: QueueStatus;
  /** Pending because the network went away; it starts again when it returns. */
  waitingForNetwork: boolean;
  updatedAt: number;
}

/** One running attempt of one item. */
export interface Attempt<Result> {
  done: Promise<Result>;
  abort: () => void;
}

export type Outcome<Result> = { ok: true; result: Result } | { ok: false; error: unknown };

/** What an ending makes of the item; `park` keeps it pending until the next trigger (no retry loop). */
export interface Conclusion<Item> {
  changes: Partial<Item>;
  park?: boolean;
}

export interface QueueDefinition<Item extends QueueItem, Result> {
  table: Table<Item, string>;
  session: SessionStore;
  isOnline: () => boolean;
  /** Runs the queue exclusively across the worker and pages (Web Locks where available). */
  withLock?: (run: () => Promise<void>) => Promise<void>;
  now?: () => number;
  /** An attempt without progress for this long ends with `timeoutError()`. */
  timeoutMs: number;
  timeoutError: () => Error;
  /** Every stored change, for the pages. */
  notify: (item: Item) => void;
  /** Which of the waiting items (running ones included) to start now. */
  pick: (waiting: Item[], userId: string | null) => Item[];
  /** Before an attempt: changes that end the item at once (nothing left to send), or null to go on. */
  prepare?: (item: Item) => Promise<Conclusion<Item> | null>;
  /** Stored with `inProgress` when an attempt starts (clearing a previous failure, say). */
  startChanges?: Partial<Item>;
  /**
   * Starts an attempt. `progress` stores changes in order (never after the
   * ending) and counts as activity for the timeout.
   */
  attempt: (item: Item, progress: (changes: Partial<Item>) => void) => Attempt<Result>;
  /** What an attempt's ending makes of the item. */
  conclude: (item: Item, outcome: Outcome<Result>) => Conclusion<Item> | Promise<Conclusion<Item>>;
}

interface Active {
  attempt: Attempt<unknown> | null;
  watchdog: Watchdog;
  settled: boolean;
  finished: Promise<void>;
  finish: () => void;
}

// Parked items wait for the next trigger (`online`, Background Sync, a page's kick). But a device can
// say it is online while the server is still out of reach: the worker's `online` can come before its
// network does, a train's connection flickers, a captive portal answers nothing. Then no trigger may come
// for a while, so while the device says it is online, parked items are tried again after a pause that
// doubles up to half a minute — a backoff, never a loop.
const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 30_000;

/**
 * Runs a persisted queue: starts pending items as `pick` allows, records
 * progress, and ends every attempt in exactly one state. Nothing is dropped.
 */
export class QueueEngine<Item extends QueueItem, Result> {
  private readonly active = new Map<string, Active>();
  private draining: Promise<void> | null = null;
  private dirty = false;
  private wake: (() => void) | null = null;
  /** Items that could not reach the server in this run: tried again on the next trigger, not in a loop. */
  private readonly parked = new Set<string>();
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private retryDelay = RETRY_FIRST_MS;

  constructor(private readonly def: QueueDefinition<Item, Result>) {}

  /** Works through the queue; resolves when nothing more can start now. */
  run(): Promise<void> {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.parked.clear();
    this.dirty = true;
    this.wake?.();
    if (!this.draining) {
      const withLock = this.def.withLock ?? ((run) => run());
      this.draining = withLock(() => this.drain()).finally(() => {
        this.draining = null;
      });
    }
    return this.draining;
  }

  /** Whether items of the current user still wait (the Background Sync handler asks). */
  async hasWaiting(): Promise<boolean> {
    const userId = await this.def.session.userId();
    return (await this.waiting()).some((item) => item.userId === userId);
  }

  isRunning(id: string): boolean {
    return this.active.has(id);
  }

  /** Stops a running attempt without an ending of its own (the caller stores the item's new state). */
  stop(id: string): void {
    const active = this.active.get(id);
    if (!active) return;
    active.settled = true;
    active.watchdog.stop();
    active.attempt?.abort();
    this.active.delete(id);
    active.finish();
  }

  async save(id: string, changes: Partial<Item>): Promise<void> {
    const stamped = { ...changes, updatedAt: this.def.now?.() ?? Date.now() } as Partial<Item>;
    // Dexie's update spec type cannot follow a generic item; the changes are the item's own fields.
    await this.def.table.update(id, stamped as never);
    const item = await this.def.table.get(id);
    if (item) this.def.notify(item);
  }

  private waiting(): Promise<Item[]> {
    return this.def.table.where('status').anyOf('pending', 'inProgress').toArray();
  }

  private async drain(): Promise<void> {
    await this.recoverInterrupted();
    for (;;) {
      this.dirty = false;
      const userId = await this.def.session.userId();
      if (this.def.isOnline()) {
        const ready = (await this.waiting()).filter((item) => !this.parked.has(item.id));
        for (const item of this.def.pick(ready, userId)) await this.start(item);
      }
      if (this.dirty) continue;
      if (this.active.size === 0) {
        this.scheduleRetry();
        return;
      }
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        for (const active of this.active.values()) void active.finished.then(resolve);
      });
      this.wake = null;
    }
  }

  /** Parked items, while the device says it is online, are tried again after a growing pause. */
  private scheduleRetry(): void {
    if (this.parked.size === 0) {
      this.retryDelay = RETRY_FIRST_MS;
      return;
    }
    if (!this.def.isOnline()) return; // `online` is the trigger then.
    const delay = this.retryDelay;
    this.retryDelay = Math.min(delay * 2, RETRY_MAX_MS);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.run().catch(() => undefined);
    }, delay);
  }

  /** An item left inProgress by a worker that was stopped (reload, closed browser) is pending again. */
  private async recoverInterrupted(): Promise<void> {
    const stale = await this.def.table.where('status').equals('inProgress').toArray();
    for (const item of stale) {
      if (!this.active.has(item.id)) await this.save(item.id, { status: 'pending' } as Partial<Item>);
    }
  }

  private async start(item: Item): Promise<void> {
    const ended = await this.def.prepare?.(item);
    if (ended) {
      await this.save(item.id, ended.changes);
      return;
    }
    await this.save(item.id, { ...this.def.startChanges, status: 'inProgress', waitingForNetwork: false } as Partial<Item>);
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const active: Active = {
      attempt: null,
      watchdog: new Watchdog(this.def.timeoutMs, () => void this.settle(item, { ok: false, error: this.def.timeoutError() })),
      settled: false,
      finished,
      finish,
    };
    this.active.set(item.id, active);
    // Writes go one after another, so a late progress write never lands after the final state.
    let writes = Promise.resolve();
    const progress = (changes: Partial<Item>) => {
      active.watchdog.touch();
      writes = writes.then(async () => {
        if (!active.settled) await this.save(item.id, changes);
      });
    };
    const attempt = this.def.attempt(item, progress);
    active.attempt = attempt;
    attempt.done.then(
      (result) => writes.then(() => this.settle(item, { ok: true, result })),
      (error: unknown) => writes.then(() => this.settle(item, { ok: false, error })),
    );
  }

  /** Ends an attempt exactly once. */
  private async settle(started: Item, outcome: Outcome<Result>): Promise<void> {
    const active = this.active.get(started.id);
    if (!active || active.settled) return;
    active.settled = true;
    active.watchdog.stop();
    if (!outcome.ok) active.attempt?.abort();
    try {
      const item = await this.def.table.get(started.id);
      if (item?.status === 'inProgress') {
        const { changes, park } = await this.def.conclude(item, outcome);
        if (park) this.parked.add(item.id);
        await this.save(item.id, changes);
      }
    } finally {
      this.active.delete(started.id);
      active.finish();
    }
  }
}
