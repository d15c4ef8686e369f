import type { CachedEntry, DriveDatabase } from '../../../offline/db';
import { listingKeyOf, readListing, type StoredListing } from '../../../offline/listing-cache';
import type { ListingParams, SortDescriptor } from '../lib/views';

// What the device can show for a listing it never stored under this exact key
// (offline, or before the server answers): a folder stored under another sort
// (a pinned folder's listing is stored in the default one), sorted here; and a
// search, answered from every entry the device has seen (listings visited and
// everything pinned), as the server would filter it.

const SEARCH_LIMIT = 500;

function compare(sort: SortDescriptor): (a: CachedEntry, b: CachedEntry) => number {
  const direction = sort.orderDir === 'asc' ? 1 : -1;
  const key = sort.orderBy;
  return (a, b) => {
    const x = a[key];
    const y = b[key];
    const order = typeof x === 'number' && typeof y === 'number' ? x - y : String(x ?? '').localeCompare(String(y ?? ''));
    return order * direction || a.id.localeCompare(b.id) * direction;
  };
}

/** Whether an entry matches a search as the server's would (name contains the words, type, modified range by day). */
export function matchesSearch(entry: CachedEntry, search: NonNullable<ListingParams['search']>): boolean {
  if (entry.deleted_at) return false;
  const words = (search.query ?? '').trim().toLowerCase().split(/\s+/).filter(Boolean);
  const name = entry.name.toLowerCase();
  if (!words.every((word) => name.includes(word))) return false;
  if (search.type && entry.type !== search.type) return false;
  const day = entry.updated_at.slice(0, 10);
  if (search.modifiedFrom && day < search.modifiedFrom.slice(0, 10)) return false;
  if (search.modifiedTo && day > search.modifiedTo.slice(0, 10)) return false;
  return true;
}

export async function readOfflineFallback(db: DriveDatabase, params: ListingParams): Promise<StoredListing | undefined> {
  if (params.view === 'folder') {
    const prefix = listingKeyOf('folder', params.folderId, '', '', '').split(':').slice(0, 2).join(':') + ':';
    const other = await db.listings.where('key').startsWith(prefix).first();
    const stored = other && (await readListing(db, other.key));
    return stored && { ...stored, entries: [...stored.entries].sort(compare(params.sort)) };
  }
  if (params.view === 'search' && params.search) {
    const search = params.search;
    const entries = await db.entries
      .filter((entry) => matchesSearch(entry, search))
      .limit(SEARCH_LIMIT)
      .toArray();
    return { entries: entries.sort(compare(params.sort)), folder: null, nextCursor: null, total: entries.length, updatedAt: Date.now() };
  }
  return undefined;
}
