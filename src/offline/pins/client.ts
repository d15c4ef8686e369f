import { useMemo, useSyncExternalStore } from 'react';
import { QueueClient } from '../queues/client';
import { userDatabase } from '../user-db';
import { defaultCaches, wipeOfflineFiles, type CacheStore } from './bytes';
import { createPinEngine } from './create-engine';
import { PINS_PERIODIC_TAG, pinsProtocol, type OfflineChange, type PinCommand, type PinEvent } from './protocol';
import { pinState, type PinItem, type PinRequest, type PinState } from './types';

// The page's side of "Make available offline", through the one queue client:
// pins are stored in the user's database by the page (from then on nothing
// loses them) and synced by the worker; unpin, refresh, free and wipe are
// commands to it. The page keeps the user's pins live from the channel, and an
// index of every entry a pin covers (for the badges and "is this offline?").

/** What pin() did. */
export interface PinResult {
  /** The ids newly pinned (already pinned ones are left as they are). */
  pinned: string[];
  /** The browser's answer to `navigator.storage.persist()` (null: not asked, or not supported). */
  persisted: boolean | null;
  /** Set when the pins would not fit in the space the browser gives the site: nothing was pinned. */
  tooLarge: { needed: number; available: number } | null;
}

/** How an entry stands offline: pinned itself, or inside a pinned folder. */
export interface EntryOffline {
  /** Pinned itself (not only inside a pinned folder). */
  pinned: boolean;
  /** The state of the pin (or of the first pin that covers it). */
  state: PinState;
  /** Its bytes (a file) or its listing (a folder) are on the device. */
  stored: boolean;
}

interface IndexRow {
  rootIds: string[];
  stored: boolean;
}

// While a page is open, pins are checked this often (the worker may also get Periodic Background Sync).
const PAGE_REFRESH_MS = 15 * 60_000;
const PERIODIC_MIN_INTERVAL = 12 * 60 * 60_000;
const INDEX_THROTTLE_MS = 500;

export class PinsClient {
  private readonly queue: QueueClient<PinCommand, PinEvent, PinItem>;
  private index = new Map<string, IndexRow>();
  private indexTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly indexListeners = new Set<() => void>();
  private refreshTimer: ReturnType<typeof setInterval> | null = null;
  private revision = 0;

  constructor(private readonly caches: () => CacheStore | null = defaultCaches) {
    this.queue = new QueueClient<PinCommand, PinEvent, PinItem>({
      protocol: pinsProtocol,
      load: (userId) => userDatabase(userId).pins.toArray(),
      changes: (event) => {
        if (event.type === 'pin') return { items: [event.item], removed: [] };
        if (event.type === 'pin-removed') return { items: [], removed: event.ids };
        return { items: [], removed: [] };
      },
      createPageEngine: (http, notify) => {
        const store = this.caches();
        // Without Cache Storage (an old browser, an insecure origin) nothing can be kept: pins stay waiting.
        if (!store) return { setUser: () => Promise.resolve(), apply: () => Promise.resolve(), run: () => Promise.resolve() };
        return createPinEngine(http, store, notify);
      },
    });
    this.queue.onEvent(() => this.scheduleIndex());
    // First among the queue's listeners, so hooks that hear the change read the new revision.
    this.queue.subscribe(() => (this.revision += 1));
  }

  /** The signed-in user's pins, oldest first. */
  getPins = (): PinItem[] => this.queue.getItems();
  subscribe = (listener: () => void): (() => void) => this.queue.subscribe(listener);

  /** Listings a sync rewrote (the page refetches them; see api/refetch-after-write.ts). */
  onChanged = (listener: (change: OfflineChange) => void): (() => void) =>
    this.queue.onEvent((event) => {
      if (event.type === 'offline-changed' && event.userId === this.queue.user()) listener(event);
    });

  /** Called once the user is known (the drive's layout): loads the pins, checks them, and keeps checking while open. */
  async connect(userId: string): Promise<void> {
    const first = this.queue.user() !== userId;
    await this.queue.connect(userId);
    if (!first) return;
    this.loadIndex(userId);
    if (this.refreshTimer) clearInterval(this.refreshTimer);
    if (typeof window !== 'undefined') this.refreshTimer = setInterval(() => void this.refresh(), PAGE_REFRESH_MS);
    void registerPeriodicSync();
  }

  /** Pins entries (files, or folders with everything below them), if they fit; asks the browser to keep the site's storage. */
  async pin(userId: string, requests: PinRequest[]): Promise<PinResult> {
    await this.connect(userId);
    const db = userDatabase(userId);
    const existing = new Set((await db.pins.bulkGet(requests.map((r) => r.entryId))).flatMap((pin) => (pin ? [pin.id] : [])));
    const fresh = requests.filter((request, i) => !existing.has(request.entryId) && requests.findIndex((r) => r.entryId === request.entryId) === i);
    if (!fresh.length) return { pinned: [], persisted: null, tooLarge: null };
    const needed = fresh.reduce((sum, request) => sum + request.size, 0);
    const available = await availableSpace();
    if (available !== null && needed > available) return { pinned: [], persisted: null, tooLarge: { needed, available } };
    const persisted = await askToPersist();
    const now = Date.now();
    const items: PinItem[] = fresh.map((request, i) => ({
      id: request.entryId,
      userId,
      status: 'pending',
      waitingForNetwork: typeof navigator !== 'undefined' && !navigator.onLine,
      createdAt: now + i,
      updatedAt: now,
      entryId: request.entryId,
      workspaceId: request.workspaceId,
      type: request.type,
      name: request.name,
      pinnedAt: now,
      bytesTotal: request.size,
      bytesStored: 0,
      filesTotal: request.type === 'file' ? 1 : 0,
      filesStored: 0,
      manifestEtag: null,
      syncedAt: null,
      error: null,
    }));
    await db.pins.bulkPut(items);
    await this.queue.added(items.map((item) => ({ type: 'pin', item })));
    return { pinned: items.map((item) => item.id), persisted, tooLarge: null };
  }

  /** Removes the device's copy of these pins (what another pin still covers stays). */
  unpin(userId: string, ids: string[]): Promise<void> {
    return this.queue.send({ type: 'pins:unpin', userId, ids });
  }

  /** Checks every pin for changes now. */
  refresh(): Promise<void> {
    return this.queue.kick();
  }

  /** Drops bytes no pin holds any more (old versions, abandoned downloads). */
  freeUpSpace(userId: string): Promise<void> {
    return this.queue.send({ type: 'pins:free', userId });
  }

  /** Sign-out: the worker stops syncing for the user, and every pinned byte of theirs leaves the device. */
  async wipe(userId: string): Promise<void> {
    await this.queue.send({ type: 'pins:wipe', userId }).catch(() => undefined);
    await wipeOfflineFiles(userId, this.caches());
    this.index = new Map();
    this.publishIndex();
  }

  /** How an entry stands offline, or null when no pin covers it. */
  entryState(entryId: string): EntryOffline | null {
    const pins = this.getPins();
    const own = pins.find((pin) => pin.id === entryId);
    const row = this.index.get(entryId);
    if (!own && !row) return null;
    const cover = own ?? pins.find((pin) => row?.rootIds.includes(pin.id));
    if (!cover) return null;
    return { pinned: !!own, state: pinState(cover), stored: row?.stored ?? false };
  }

  subscribeIndex = (listener: () => void): (() => void) => {
    this.indexListeners.add(listener);
    return () => this.indexListeners.delete(listener);
  };

  private scheduleIndex(): void {
    const userId = this.queue.user();
    if (!userId || this.indexTimer) return;
    this.indexTimer = setTimeout(() => {
      this.indexTimer = null;
      this.loadIndex(userId);
    }, INDEX_THROTTLE_MS);
  }

  private loadIndex(userId: string): void {
    void userDatabase(userId)
      .offlineEntries.toArray()
      .then((rows) => {
        if (this.queue.user() !== userId) return;
        this.index = new Map(rows.map((row) => [row.entryId, { rootIds: row.rootIds, stored: row.storedAt !== null }]));
        this.publishIndex();
      });
  }

  private publishIndex(): void {
    this.revision += 1;
    for (const listener of this.indexListeners) listener();
  }

  /** Changes whenever a pin or the index changes (for hooks that read entryState). */
  getRevision = (): number => this.revision;
}

/** Free space the browser gives the site, or null when it does not say. */
async function availableSpace(): Promise<number | null> {
  try {
    const estimate = await navigator.storage?.estimate?.();
    if (estimate?.quota === undefined || estimate.usage === undefined) return null;
    return Math.max(0, estimate.quota - estimate.usage);
  } catch {
    return null;
  }
}

/** Asked for when the user pins (a user action, as Chromium's heuristics want); the answer is kept by the browser. */
async function askToPersist(): Promise<boolean | null> {
  try {
    if (!navigator.storage?.persist) return null;
    if (await navigator.storage.persisted()) return true;
    return await navigator.storage.persist();
  } catch {
    return null;
  }
}

/** Periodic Background Sync, where the browser grants it (installed apps): the worker refreshes pins without a page. */
async function registerPeriodicSync(): Promise<void> {
  try {
    if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
    const registration = (await navigator.serviceWorker.ready) as ServiceWorkerRegistration & {
      periodicSync?: { register(tag: string, options: { minInterval: number }): Promise<void> };
    };
    await registration.periodicSync?.register(PINS_PERIODIC_TAG, { minInterval: PERIODIC_MIN_INTERVAL });
  } catch {
    // Not granted (a tab, not an installed app): the page's timer and `online` refresh instead.
  }
}

export const pinsClient = new PinsClient();

/** The signed-in user's pins, live. */
// The server's preview of the drive (src/entry-server.tsx) reads the same, still empty, state.
export function usePins(): PinItem[] {
  return useSyncExternalStore(pinsClient.subscribe, pinsClient.getPins, pinsClient.getPins);
}

function subscribePinsAndIndex(listener: () => void): () => void {
  const pins = pinsClient.subscribe(listener);
  const index = pinsClient.subscribeIndex(listener);
  return () => {
    pins();
    index();
  };
}

/** A number that changes whenever what the device holds changes: components that read entryState re-render on it. */
export function useOfflineRevision(): number {
  return useSyncExternalStore(subscribePinsAndIndex, pinsClient.getRevision, pinsClient.getRevision);
}

/** How an entry stands offline (pinned, inside a pinned folder, its state), or null; live. */
export function usePinState(entryId: string): EntryOffline | null {
  const read = () => {
    const state = pinsClient.entryState(entryId);
    return state ? `${state.pinned ? 1 : 0}|${state.state}|${state.stored ? 1 : 0}` : '';
  };
  const key = useSyncExternalStore(subscribePinsAndIndex, read, read);
  return useMemo(() => {
    if (!key) return null;
    const [pinned, state, stored] = key.split('|');
    return { pinned: pinned === '1', state: state as PinState, stored: stored === '1' };
  }, [key]);
}
