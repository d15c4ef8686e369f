import { dehydrate } from '@tanstack/react-query';
import type { Query, QueryClient } from '@tanstack/react-query';
import { createSyncStoragePersister } from '@tanstack/query-sync-storage-persister';
import type { PersistQueryClientOptions } from '@tanstack/react-query-persist-client';
import { isAppearanceEditorActive } from '../features/appearance/bridge';

// The query cache (bootstrap data above all) is saved to localStorage, which
// is synchronous and available before any network: a reload while offline
// paints the shell from the last copy. Larger offline data (listings,
// uploads, drafts) goes to IndexedDB through Dexie instead.
export const PERSIST_KEY = 'be-query-cache';
const WEEK = 7 * 24 * 60 * 60 * 1000;

type PersistOptions = Omit<PersistQueryClientOptions, 'queryClient'>;

/**
 * The flag a feature sets on a query whose data it keeps in IndexedDB itself
 * (`meta: IN_INDEXEDDB`): the persister leaves it out of localStorage.
 */
export const IN_INDEXEDDB = { persist: false } as const;

// Only successful data is worth repainting from, and only what no feature keeps in IndexedDB.
const shouldPersist = (query: Pick<Query, 'state' | 'meta'>) => query.state.status === 'success' && query.meta?.persist !== false;

export function createPersistOptions(buster: string): PersistOptions {
  const storage = createSyncStoragePersister({ storage: window.localStorage, key: PERSIST_KEY, throttleTime: 500 });
  // The appearance editor's preview holds unsaved drafts in its bootstrap data and shares
  // this origin's storage with the real site: it reads the saved cache but never writes it,
  // or a Cancel would not undo the drafts.
  const persister: typeof storage = {
    ...storage,
    persistClient: (client) => (isAppearanceEditorActive() ? undefined : storage.persistClient(client)),
  };
  return {
    persister,
    maxAge: WEEK,
    buster,
    dehydrateOptions: { shouldDehydrateQuery: shouldPersist },
  };
}

/**
 * Writes the cache now, in the persister's format. Its saves are throttled,
 * so a reload right after a change (signing in, then losing the network)
 * would otherwise reopen on the previous copy; the page calls this when it is
 * hidden or unloaded, where only a synchronous write is sure to land.
 */
export function flushPersistedCache(client: QueryClient, buster: string): void {
  if (isAppearanceEditorActive()) return;
  try {
    const clientState = dehydrate(client, { shouldDehydrateQuery: shouldPersist });
    window.localStorage.setItem(PERSIST_KEY, JSON.stringify({ buster, timestamp: Date.now(), clientState }));
  } catch {
    // Storage full or blocked: the throttled save still runs when it can.
  }
}

/**
 * What the device restored is for painting before the network answers, not
 * an answer: every restored query counts as stale, so the first screen that
 * reads it asks again. Otherwise a copy saved less than 30 s ago (spec §7's
 * freshness) would stand in for the server across a reload, and an admin's
 * change (a translation, a setting, a menu) would wait for it (issue 32.6).
 */
export function markRestoredStale(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ refetchType: 'none' });
}
