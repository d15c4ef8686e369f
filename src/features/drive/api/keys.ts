import { IN_INDEXEDDB } from '../../../offline/persister';

// The drive's query keys, the one place they are defined. Everything the drive
// shows belongs to a workspace, and the workspace leads the key, so two
// workspaces never share a cached listing and switching refetches.
export const driveKeys = {
  /** Every drive query of one workspace: refreshed when an upload lands there. */
  all: (workspaceId: number) => ['ws', workspaceId, 'drive'] as const,
  listings: (workspaceId: number) => ['ws', workspaceId, 'drive', 'listing'] as const,
  listing: (workspaceId: number, key: string) => ['ws', workspaceId, 'drive', 'listing', key] as const,
  tree: (workspaceId: number) => ['ws', workspaceId, 'drive', 'folders'] as const,
  path: (workspaceId: number, hash: string) => ['ws', workspaceId, 'drive', 'path', hash] as const,
  details: (workspaceId: number, id: string) => ['ws', workspaceId, 'drive', 'details', id] as const,
  /** Every storage summary (a prefix: invalidating it refreshes them all); small and persisted. */
  usage: ['user', 'space-usage'] as const,
  /** The storage summary of a space: in a workspace, its payer's (what its uploads fill). */
  usageOf: (workspaceId: number) => ['user', 'space-usage', workspaceId] as const,
};

/**
 * Listings and the folder tree have their own store in IndexedDB
 * (offline/db.ts) and would overflow localStorage on a big drive: the query
 * persister leaves queries with this meta out.
 */
export const driveQueryMeta = IN_INDEXEDDB;
