import type { UploadCommand } from '../../src/features/uploads/queue/protocol';
import type { UploadsDatabase } from '../../src/features/uploads/queue/db';
import { INACTIVITY_TIMEOUT, percentage, pickNextToStart, TIMED_OUT } from '../../src/features/uploads/queue/rules';
import type { UploadEvent } from '../../src/features/uploads/queue/protocol';
import type { FileEntry, UploadItem, UploadMethod } from '../../src/features/uploads/queue/types';
import { UploadFailure } from './transport';
import type { Transport, TransportHandle } from './transport';
import { Watchdog } from './watchdog';

export interface EngineDeps {
  db: UploadsDatabase;
  transports: Record<UploadMethod, Transport>;
  /** Every change, for the pages (BroadcastChannel 'uploads'). */
  notify: (event: UploadEvent) => void;
  isOnline: () => boolean;
  /** Runs the queue exclusively across the worker and pages (Web Locks where available). */
  withLock?: (run: () => Promise<void>) => Promise<void>;
  timeoutMs?: number;
  now?: () => number;
}

interface Active {
  handle: TransportHandle | null;
  watchdog: Watchdog;
  settled: boolean;
  finished: Promise<void>;
  finish: () => void;
}

const USER_KEY = 'activeUser';

/**
 * Runs the persisted queue (spec §4 Upload status): starts pending items as
 * slots free up, records progress, and ends every attempt in exactly one
 * state. Nothing is dropped: failures keep their bytes, message and tus URL.
 */
export class UploadEngine {
  private readonly active = new Map<string, Active>();
  private draining: Promise<void> | null = null;
  private dirty = false;
  private wake: (() => void) | null = null;
  private userId: string | null | undefined;
  /** Items that could not reach the server in this run: tried again on the next trigger, not in a loop. */
  private readonly parked = new Set<string>();

  constructor(private readonly deps: EngineDeps) {}

  private get db(): UploadsDatabase {
    return this.deps.db;
  }

  /** The signed-in user, as the last page said; remembered for start-ups without a page. */
  async setUser(userId: string | null): Promise<void> {
    if (userId === this.userId) return;
    this.userId = userId;
    await this.db.meta.put({ key: USER_KEY, value: userId });
  }

  private async currentUser(): Promise<string | null> {
    if (this.userId === undefined) this.userId = (await this.db.meta.get(USER_KEY))?.value ?? null;
    return this.userId;
  }

  /** Works through the queue; resolves when nothing more can start now. */
  /**
   * One command from a page. The returned promise settles when the command's
   * work is done (for a kick, when the queue has run dry), so the worker can
   * hold its event open that long; the page's own runner need not wait.
   */
  async apply(command: UploadCommand): Promise<void> {
    switch (command.type) {
      case 'uploads:kick':
        await this.setUser(command.userId);
        return this.run();
      case 'uploads:cancel':
        return this.cancel(command.id);
      case 'uploads:retry':
        return this.retry(command.id);
      case 'uploads:clear':
        return this.clear(command.userId);
    }
  }

  run(): Promise<void> {
    this.parked.clear();
    this.dirty = true;
    this.wake?.();
    if (!this.draining) {
      const withLock = this.deps.withLock ?? ((run) => run());
      this.draining = withLock(() => this.drain()).finally(() => {
        this.draining = null;
      });
    }
    return this.draining;
  }

  /** Whether items of the current user still wait (the Background Sync handler asks). */
  async hasWaiting(): Promise<boolean> {
    const userId = await this.currentUser();
    const waiting = await this.db.items.where('status').anyOf('pending', 'inProgress').toArray();
    return waiting.some((item) => item.userId === userId);
  }

  private async drain(): Promise<void> {
    await this.recoverInterrupted();
    for (;;) {
      this.dirty = false;
      const userId = await this.currentUser();
      if (this.deps.isOnline()) {
        const items = await this.db.items.where('status').anyOf('pending', 'inProgress').toArray();
        const ready = items.filter((item) => !this.parked.has(item.id));
        for (const item of pickNextToStart(ready, userId)) await this.start(item);
      }
      if (this.dirty) continue;
      if (this.active.size === 0) return;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        for (const active of this.active.values()) void active.finished.then(resolve);
      });
      this.wake = null;
    }
  }

  /**
   * An item left inProgress by a worker that was stopped (reload, closed
   * browser) is pending again; its tus URL makes it resume, not restart.
   */
  private async recoverInterrupted(): Promise<void> {
    const stale = await this.db.items.where('status').equals('inProgress').toArray();
    for (const item of stale) {
      if (!this.active.has(item.id)) await this.save(item.id, { status: 'pending' });
    }
  }

  private async start(item: UploadItem): Promise<void> {
    const stored = await this.db.blobs.get(item.id);
    if (!stored) {
      await this.save(item.id, { status: 'failed', retryable: false });
      return;
    }
    await this.save(item.id, { status: 'inProgress', errorMessage: null, errorValues: null, waitingForNetwork: false });
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const timeout = this.deps.timeoutMs ?? INACTIVITY_TIMEOUT;
    const active: Active = {
      handle: null,
      watchdog: new Watchdog(timeout, () => void this.settle(item.id, new UploadFailure('timeout', 0, TIMED_OUT))),
      settled: false,
      finished,
      finish,
    };
    this.active.set(item.id, active);
    // Writes go one after another, so a late progress write never lands
    // after the final state.
    let writes = Promise.resolve();
    const write = (changes: Partial<UploadItem>) => {
      writes = writes.then(async () => {
        if (!active.settled) await this.save(item.id, changes);
      });
    };
    active.handle = this.deps.transports[item.method](item, {
      blob: stored.blob,
      onProgress: (bytes) => {
        active.watchdog.touch();
        write({ bytesUploaded: bytes, percentage: percentage(bytes, item.size) });
      },
      onUploadUrl: (url) => write({ tusUrl: url }),
    });
    active.handle.done.then(
      (entry) => writes.then(() => this.settle(item.id, entry)),
      (error: unknown) => writes.then(() => this.settle(item.id, error)),
    );
  }

  /** Ends an attempt exactly once: completed with the entry, or by its failure. */
  private async settle(id: string, outcome: unknown): Promise<void> {
    const active = this.active.get(id);
    if (!active || active.settled) return;
    active.settled = true;
    active.watchdog.stop();
    if (outcome instanceof Error) active.handle?.abort();
    try {
      const item = await this.db.items.get(id);
      if (item?.status === 'inProgress') {
        const changes = this.outcomeChanges(item, outcome);
        if (changes.status === 'completed') await this.db.blobs.delete(id);
        await this.save(id, changes);
      }
    } finally {
      this.active.delete(id);
      active.finish();
    }
  }

  private outcomeChanges(item: UploadItem, outcome: unknown): Partial<UploadItem> {
    if (!(outcome instanceof Error)) {
      // The bytes are on the server now; their copy on the device goes.
      return { status: 'completed', entry: outcome as FileEntry, tusUrl: null, bytesUploaded: item.size, percentage: 100 };
    }
    const failure = outcome instanceof UploadFailure ? outcome : new UploadFailure('network');
    if (failure.kind === 'aborted') return { status: 'aborted' };
    // No answer at all, or silence while the device says it is offline: wait
    // for the network instead of failing (DESIGN §6). It starts again on the
    // next trigger: `online`, Background Sync, a page's message, start-up.
    // A tus offset conflict (409) or a locked upload (423) means "ask the server where we are":
    // tus-js-client does that itself when online, and gives up while the device is offline.
    const resyncWhenOnline = failure.kind === 'http' && (failure.status === 409 || failure.status === 423);
    if (failure.kind === 'network' || ((failure.kind === 'timeout' || resyncWhenOnline) && !this.deps.isOnline())) {
      this.parked.add(item.id);
      return { status: 'pending', waitingForNetwork: true };
    }
    return { status: 'failed', errorMessage: failure.userMessage, errorValues: null, retryable: true };
  }

  /** User abort: a running attempt stops; the item stays listed as aborted. */
  async cancel(id: string): Promise<void> {
    const item = await this.db.items.get(id);
    if (!item || item.status === 'completed' || item.status === 'aborted') return;
    const active = this.active.get(id);
    if (active) {
      active.settled = true;
      active.watchdog.stop();
      active.handle?.abort();
      this.active.delete(id);
      active.finish();
    }
    await this.save(id, { status: 'aborted', waitingForNetwork: false });
    void this.run();
  }

  /** A failed or aborted item goes back to the queue, resuming from its tus URL. */
  async retry(id: string): Promise<void> {
    const item = await this.db.items.get(id);
    if (!item?.retryable || (item.status !== 'failed' && item.status !== 'aborted')) return;
    await this.save(id, { status: 'pending', errorMessage: null, errorValues: null, waitingForNetwork: false });
    void this.run();
  }

  /** Drops completed and aborted items of one user, with their bytes. */
  async clear(userId: string): Promise<void> {
    const items = await this.db.items.where('userId').equals(userId).toArray();
    const ids = items.filter((i) => i.status === 'completed' || i.status === 'aborted').map((i) => i.id);
    if (!ids.length) return;
    await this.db.transaction('rw', this.db.items, this.db.blobs, async () => {
      await this.db.items.bulkDelete(ids);
      await this.db.blobs.bulkDelete(ids);
    });
    this.deps.notify({ type: 'removed', ids });
  }

  private async save(id: string, changes: Partial<UploadItem>): Promise<void> {
    const stamped = { ...changes, updatedAt: this.deps.now?.() ?? Date.now() };
    await this.db.items.update(id, stamped);
    const item = await this.db.items.get(id);
    if (item) this.deps.notify({ type: 'item', item });
  }
}
