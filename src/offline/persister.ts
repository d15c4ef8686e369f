import { dehydrate } from '@tanstack/react-query';
import type { Query, QueryClient } from '@tanstack/react-query';
import { createSyncStoragePersister } from '@tanstack/query-sync-storage-persister';
import type { PersistQueryClientOptions } from '@tanstack/react-query-persist-client';

// The query cache (bootstrap data above all) is saved to localStorage, which
// is synchronous and available before any network: a reload while offline
// paints the shell from the last copy. Larger offline data (listings,
// uploads, drafts) goes to IndexedDB through Dexie instead.
export const PERSIST_KEY = 'be-query-cache';
const WEEK = 7 * 24 * 60 * 60 * 1000;

type PersistOptions = Omit<PersistQueryClientOptions, 'queryClient'>;

// Only successful data is worth repainting from. Drive listings and the
// folder tree have their own store in IndexedDB (offline/db.ts) and would
// overflow localStorage on a big drive, so they stay out of it.
const shouldPersist = (query: Pick<Query, 'state' | 'queryKey'>) => query.state.status === 'success' && query.queryKey[0] !== 'drive';

export function createPersistOptions(buster: string): PersistOptions {
  const persister = createSyncStoragePersister({ storage: window.localStorage, key: PERSIST_KEY, throttleTime: 500 });
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
  try {
    const clientState = dehydrate(client, { shouldDehydrateQuery: shouldPersist });
    window.localStorage.setItem(PERSIST_KEY, JSON.stringify({ buster, timestamp: Date.now(), clientState }));
  } catch {
    // Storage full or blocked: the throttled save still runs when it can.
  }
}
