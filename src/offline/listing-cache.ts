import type { CachedEntry, CachedFolderInfo, CachedFolderNode, CachedListing, DriveDatabase } from './db';

// Reads and writes of the drive's offline copy. A listing's first page from
// the server replaces what was stored (the server is the truth); later pages
// of the same listing append; mutations patch entries in place.

/** One stable string per listing: view, folder, sort and filters (the drive's views build theirs with it). */
export function listingKeyOf(view: string, folder: string, orderBy: string, orderDir: string, filters: string): string {
  return [view, folder, orderBy, orderDir, filters].join(':');
}

/** The drive's default sort, which a pinned folder's listing is stored under (the sync engine has no view state). */
export const PINNED_LISTING_SORT = { orderBy: 'updated_at', orderDir: 'desc' } as const;

/** The key of a folder's listing in the default sort. */
export const folderListingKey = (folderId: string) => listingKeyOf('folder', folderId, PINNED_LISTING_SORT.orderBy, PINNED_LISTING_SORT.orderDir, '');

export interface ListingPage {
  entries: CachedEntry[];
  folder: CachedFolderInfo | null;
  nextCursor: string | null;
  total: number | null;
}

export interface StoredListing {
  entries: CachedEntry[];
  folder: CachedFolderInfo | null;
  nextCursor: string | null;
  total: number | null;
  updatedAt: number;
}

export async function writeListingPage(db: DriveDatabase, key: string, page: ListingPage, options: { replace: boolean }): Promise<void> {
  await db.transaction('rw', db.listings, db.entries, async () => {
    await db.entries.bulkPut(page.entries);
    const ids = page.entries.map((e) => e.id);
    const previous = options.replace ? undefined : await db.listings.get(key);
    const known = new Set(previous?.ids);
    const merged = previous ? [...previous.ids, ...ids.filter((id) => !known.has(id))] : ids;
    const record: CachedListing = {
      key,
      ids: merged,
      folder: page.folder ?? previous?.folder ?? null,
      nextCursor: page.nextCursor,
      total: page.total ?? previous?.total ?? null,
      updatedAt: Date.now(),
    };
    await db.listings.put(record);
  });
}

/** A stored listing with its entries, or undefined when this device never saw it. */
export async function readListing(db: DriveDatabase, key: string): Promise<StoredListing | undefined> {
  const listing = await db.listings.get(key);
  if (!listing) return undefined;
  const entries = (await db.entries.bulkGet(listing.ids)).filter((e): e is CachedEntry => !!e);
  return { entries, folder: listing.folder, nextCursor: listing.nextCursor, total: listing.total, updatedAt: listing.updatedAt };
}

/** Entries the server returned after a change (rename, star): every listing shows them at once. */
export async function putEntries(db: DriveDatabase, entries: CachedEntry[]): Promise<void> {
  if (entries.length) await db.entries.bulkPut(entries);
}

/**
 * Entries that left their listings (trashed, restored, moved). Their rows stay:
 * the listing they went to may be stored too, and the next visit replaces it.
 */
export async function removeFromListings(db: DriveDatabase, ids: string[]): Promise<void> {
  if (!ids.length) return;
  const gone = new Set(ids);
  await db.listings.toCollection().modify((listing) => {
    listing.ids = listing.ids.filter((id) => !gone.has(id));
  });
}

/** Entries deleted for good: out of every listing and off the device. */
export async function forgetEntries(db: DriveDatabase, ids: string[]): Promise<void> {
  await db.transaction('rw', db.listings, db.entries, async () => {
    await removeFromListings(db, ids);
    await db.entries.bulkDelete(ids);
  });
}

/** The whole folder tree, replaced by the server's answer. */
export async function replaceFolderTree(db: DriveDatabase, folders: CachedFolderNode[]): Promise<void> {
  await db.transaction('rw', db.folders, async () => {
    await db.folders.clear();
    await db.folders.bulkPut(folders);
  });
}

export function readFolderTree(db: DriveDatabase): Promise<CachedFolderNode[]> {
  return db.folders.toArray();
}
