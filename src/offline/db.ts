import Dexie from 'dexie';
import type { Table } from 'dexie';
import type { components } from '../api/schema';

// The device's copy of the drive (DESIGN §6): every listing the user has seen,
// the entries in them and the folder tree, so screens paint from here first
// and previously seen folders still open offline. One database per user, so a
// shared browser never shows one person's files to another.
export type CachedEntry = components['schemas']['FileEntry'];
export type CachedFolderInfo = components['schemas']['Folder'];

export interface CachedListing {
  /** listingKey(): view, folder, sort and filters. */
  key: string;
  /** Entry ids in the server's order; the entries live in their own table. */
  ids: string[];
  folder: CachedFolderInfo | null;
  nextCursor: string | null;
  total: number | null;
  updatedAt: number;
}

export interface CachedFolderNode {
  hash: string;
  name: string;
  /** The parent's hash; null at the root. */
  parent_id: string | null;
}

export class DriveDatabase extends Dexie {
  listings!: Table<CachedListing, string>;
  entries!: Table<CachedEntry, string>;
  folders!: Table<CachedFolderNode, string>;

  constructor(name: string) {
    super(name);
    this.version(1).stores({
      listings: '&key, updatedAt',
      entries: '&id, parent_id',
      folders: '&hash, parent_id',
    });
  }
}

const databases = new Map<string, DriveDatabase>();

/** The drive database of one user (and workspace), opened once per page. */
export function driveDatabase(userId: number | string, workspaceId: number | string = 0): DriveDatabase {
  const name = `drive-offline-${userId}-${workspaceId}`;
  let db = databases.get(name);
  if (!db) {
    db = new DriveDatabase(name);
    databases.set(name, db);
  }
  return db;
}
