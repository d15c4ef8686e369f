import { driveDatabase } from '../db';
import { QueueEngine, type Conclusion, type Outcome } from '../queues/engine';
import type { HttpDeps } from '../queues/http';
import { MemorySession, type SessionStore } from '../queues/session';
import { userDatabase } from '../user-db';
import { blobKey, offlineCacheName, thumbnailKey, wipeOfflineFiles, type CacheStore } from './bytes';
import type { PinCommand, PinEvent } from './protocol';
import { PinGone, SyncRefused, syncPin, type SyncDeps, type SyncResult } from './sync';
import type { PinItem } from './types';

export interface PinEngineDeps {
  http: HttpDeps;
  caches: CacheStore;
  notify: (event: PinEvent) => void;
  isOnline: () => boolean;
  withLock?: (run: () => Promise<void>) => Promise<void>;
  session?: SessionStore;
  now?: () => number;
  /** Passed to each sync (tests make chunks small). */
  sync?: Pick<SyncDeps, 'parallel' | 'chunkBytes'>;
}

// A sync without a byte of progress for this long is cut and waits for the next trigger.
const SYNC_TIMEOUT = 60_000;
// The worker's own triggers (start-up, `online`, every page's session message)
// check pins at most this often; the page's refresh (app start, the page's
// `online`, its timer, the Refresh button) checks at once.
const AUTO_REFRESH_MS = 60_000;

/**
 * The sync engine: pins are items of a queue (the generic engine's parking,
 * recovery, timeout and lock), one at a time per user, each attempt a sync of
 * that pin. A refresh makes every settled pin due again; when nothing changed
 * it costs one request per pin (the manifest's 304).
 */
export class PinEngine {
  private readonly queues = new Map<string, QueueEngine<PinItem, SyncResult>>();
  private readonly session: SessionStore;
  private lastRefresh = 0;

  constructor(private readonly deps: PinEngineDeps) {
    this.session = deps.session ?? new MemorySession();
  }

  setUser(userId: string | null): Promise<void> {
    return this.session.setUser(userId);
  }

  /** Start-up, `online`, a page's session message: checks pins if it has not lately, then syncs what is due. */
  async run(): Promise<void> {
    const now = this.now();
    if (now - this.lastRefresh >= AUTO_REFRESH_MS) return this.refresh();
    const queue = await this.queue();
    await queue?.run();
  }

  async apply(command: PinCommand): Promise<void> {
    switch (command.type) {
      case 'pins:refresh':
        return this.refresh();
      case 'pins:unpin':
        return this.unpin(command.userId, command.ids);
      case 'pins:free':
        return this.free(command.userId);
      case 'pins:wipe':
        return this.wipe(command.userId);
    }
  }

  async hasWaiting(): Promise<boolean> {
    const queue = await this.queue();
    return (await queue?.hasWaiting()) ?? false;
  }

  /** Every settled pin of the user is due again; then the queue runs. */
  async refresh(): Promise<void> {
    this.lastRefresh = this.now();
    const userId = await this.session.userId();
    const queue = await this.queue();
    if (!userId || !queue) return;
    const online = this.deps.isOnline();
    const due = await userDatabase(userId).pins.where('status').anyOf('completed', 'failed', 'pending').toArray();
    // Offline, they wait for the network (and say so); the next trigger after it returns runs them.
    for (const pin of due) {
      if (pin.status !== 'pending' || pin.waitingForNetwork === online) await queue.save(pin.id, { status: 'pending', waitingForNetwork: !online });
    }
    await queue.run();
  }

  async unpin(userId: string, ids: string[]): Promise<void> {
    const db = userDatabase(userId);
    const queue = this.queueFor(userId);
    for (const id of ids) queue.stop(id);
    const gone = new Set(ids);
    const covered = await db.offlineEntries.where('rootIds').anyOf(ids).toArray();
    const removed = covered.filter((row) => row.rootIds.every((root) => gone.has(root)));
    const kept = covered.filter((row) => !removed.includes(row)).map((row) => ({ ...row, rootIds: row.rootIds.filter((root) => !gone.has(root)) }));
    await db.transaction('rw', db.pins, db.offlineEntries, async () => {
      await db.pins.bulkDelete(ids);
      await db.offlineEntries.bulkDelete(removed.map((row) => row.entryId));
      await db.offlineEntries.bulkPut(kept);
    });
    const cache = await this.deps.caches.open(offlineCacheName(userId));
    for (const row of removed) if (row.version) await cache.delete(thumbnailKey(this.deps.http.origin, row.entryId, row.version));
    await this.release(
      userId,
      removed.map((row) => row.version),
    );
    this.deps.notify({ type: 'pin-removed', userId, ids });
  }

  /** Bytes no entry row holds (versions replaced, downloads interrupted and abandoned) leave the device. */
  async free(userId: string): Promise<void> {
    const db = userDatabase(userId);
    const cache = await this.deps.caches.open(offlineCacheName(userId));
    const held = new Set((await db.offlineEntries.toArray()).flatMap((row) => (row.version && row.storedAt ? [row.version] : [])));
    const thumbs = new Set(
      (await db.offlineEntries.toArray()).flatMap((row) =>
        row.version && row.thumbnailStored ? [thumbnailKey(this.deps.http.origin, row.entryId, row.version)] : [],
      ),
    );
    for (const request of await cache.keys()) {
      const url = request.url;
      const version = url.slice(url.lastIndexOf('/') + 1);
      const isBlob = url === blobKey(this.deps.http.origin, version);
      if ((isBlob && !held.has(version)) || (!isBlob && !thumbs.has(url))) await cache.delete(request);
    }
    const running = await db.pins.where('status').equals('inProgress').count();
    if (running === 0) {
      const wanted = new Set((await db.offlineEntries.toArray()).flatMap((row) => (row.version && !row.storedAt ? [row.version] : [])));
      await db.offlinePartials.filter((part) => !wanted.has(part.version)).delete();
    }
  }

  async wipe(userId: string): Promise<void> {
    const ids = (await userDatabase(userId).pins.toArray()).map((pin) => pin.id);
    const queue = this.queues.get(userId);
    for (const id of ids) queue?.stop(id);
    this.queues.delete(userId);
    await wipeOfflineFiles(userId, this.deps.caches);
    this.deps.notify({ type: 'pin-removed', userId, ids });
  }

  private async release(userId: string, versions: (string | null)[]): Promise<void> {
    const db = userDatabase(userId);
    const cache = await this.deps.caches.open(offlineCacheName(userId));
    for (const version of new Set(versions)) {
      if (!version || (await db.offlineEntries.where('version').equals(version).count()) > 0) continue;
      await cache.delete(blobKey(this.deps.http.origin, version));
      await db.offlinePartials.where('version').equals(version).delete();
    }
  }

  private now(): number {
    return this.deps.now?.() ?? Date.now();
  }

  private async queue(): Promise<QueueEngine<PinItem, SyncResult> | null> {
    const userId = await this.session.userId();
    return userId ? this.queueFor(userId) : null;
  }

  private queueFor(userId: string): QueueEngine<PinItem, SyncResult> {
    let queue = this.queues.get(userId);
    if (queue) return queue;
    const db = userDatabase(userId);
    const deps = this.deps;
    const sync: SyncDeps = {
      ...deps.sync,
      http: deps.http,
      db,
      drive: (workspaceId) => driveDatabase(userId, workspaceId),
      cache: () => deps.caches.open(offlineCacheName(userId)),
      changed: (change) => deps.notify({ type: 'offline-changed', userId, ...change }),
    };
    queue = new QueueEngine<PinItem, SyncResult>({
      table: db.pins,
      session: this.session,
      isOnline: deps.isOnline,
      withLock: deps.withLock,
      now: deps.now,
      timeoutMs: SYNC_TIMEOUT,
      timeoutError: () => new Error('timeout'),
      notify: (item) => deps.notify({ type: 'pin', item }),
      // One pin at a time: each already downloads several files at once.
      pick: (waiting, current) => {
        if (current !== userId || waiting.some((pin) => pin.status === 'inProgress')) return [];
        return waiting
          .filter((pin) => pin.status === 'pending')
          .sort((a, b) => a.createdAt - b.createdAt)
          .slice(0, 1);
      },
      startChanges: { error: null },
      attempt: (pin, progress) => syncPin(sync, pin, progress),
      conclude: (pin, outcome) => conclude(pin, outcome, this.now()),
    });
    this.queues.set(userId, queue);
    return queue;
  }
}

function conclude(_pin: PinItem, outcome: Outcome<SyncResult>, now: number): Conclusion<PinItem> {
  if (outcome.ok) return { changes: { status: 'completed', ...outcome.result, syncedAt: now, error: null } };
  const error = outcome.error;
  if (error instanceof PinGone) return { changes: { status: 'failed', error: 'gone', bytesStored: 0, filesStored: 0, manifestEtag: null } };
  if (error instanceof SyncRefused) return { changes: { status: 'failed', error: error.message } };
  return { changes: { status: 'pending', waitingForNetwork: true }, park: true };
}
