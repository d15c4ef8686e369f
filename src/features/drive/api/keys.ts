// The drive's query keys. Listings and the tree live in IndexedDB (Dexie), so
// the query persister leaves everything under 'drive' out of localStorage;
// the small storage summary is persisted with the rest of the cache.
export const driveKeys = {
  all: ['drive'] as const,
  listings: ['drive', 'listing'] as const,
  listing: (key: string) => ['drive', 'listing', key] as const,
  tree: ['drive', 'folders'] as const,
  path: (hash: string) => ['drive', 'path', hash] as const,
  details: (id: string) => ['drive', 'details', id] as const,
  usage: ['user', 'space-usage'] as const,
};
