import { userDatabase } from '../user-db';

// Where pinned bytes live: Cache Storage, one cache per user. Chosen over
// OPFS because the worker can answer the app's own preview, download and
// thumbnail addresses with a stored Response as is (Range included, cut from
// the stored Blob), so every screen that shows a file works offline without
// knowing about pins; OPFS would need a second read path in each of them.
// Headless Chromium stores and reads both (research-2026-11-26 §6.2).
//
// Bytes are keyed by content: one file version (sha256) is one cache entry,
// whatever number of entries or pins hold it, so nothing is stored twice. The
// entries that point to a version are `offlineEntries` rows (user-db.ts).

export const offlineCacheName = (userId: string) => `drive-offline-files-${userId}`;

/** The cache key of a version's bytes (never fetched from the network: it only names the entry). */
export const blobKey = (origin: string, version: string) => `${origin}/__offline/files/${version}`;
/** The cache key of a version's thumbnail (a thumbnail belongs to one entry's version). */
export const thumbnailKey = (origin: string, entryId: string, version: string) => `${origin}/__offline/thumbnails/${entryId}/${version}`;

/** The part of CacheStorage the store uses (tests pass their own). */
export type CacheStore = Pick<CacheStorage, 'open' | 'delete'>;

export function defaultCaches(): CacheStore | null {
  return typeof caches === 'undefined' ? null : caches;
}

/**
 * Sign-out: every pin, every entry record, every interrupted download and
 * every stored byte of the user leaves the device. The sign-out path calls it
 * (through PinsClient.wipe, which also stops the worker's sync for the user).
 */
export async function wipeOfflineFiles(userId: string, store: CacheStore | null = defaultCaches()): Promise<void> {
  const db = userDatabase(userId);
  await db.transaction('rw', db.pins, db.offlineEntries, db.offlinePartials, async () => {
    await db.pins.clear();
    await db.offlineEntries.clear();
    await db.offlinePartials.clear();
  });
  await store?.delete(offlineCacheName(userId));
}
