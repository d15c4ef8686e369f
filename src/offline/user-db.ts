import Dexie from 'dexie';
import type { Table } from 'dexie';
import type { OfflineEntry, OfflinePartial, PinItem } from './pins/types';

// What belongs to a user whichever workspace is active (DESIGN §6): their
// notifications (the bell paints offline; the worker writes what web push
// brings), their workspaces (the selector paints offline) and their document
// drafts (kept until the server has the save).
// The drive's copy is per user and workspace (db.ts); this one is per user.
// The worker finds it from the shared session (queues/session.ts).

export interface CachedNotification {
  id: string;
  type: string;
  /** The notification's data (spec §3), as the server sent it. */
  data: unknown;
  read_at: string | null;
  created_at: string;
  /** The server's order (newest first): times tie within a millisecond, and the ids are random. */
  position: number;
}

export interface DocumentDraft {
  /** The document's entry id. */
  entryId: string;
  /** The editor's content, as the save call sends it. */
  content: unknown;
  /** The server version the draft was made from (ETag): a save from a stale base becomes a conflict copy. */
  baseEtag: string | null;
  updatedAt: number;
}

/** The server's copy of a document as last read or saved on this device: documents opened before open offline. */
export interface CachedDocument {
  entryId: string;
  name: string;
  content: unknown;
  /** The server version (ETag) this content is. */
  version: string;
  fetchedAt: number;
}

/** One of the user's workspaces as the list call answers it (spec §3 Workspace, without members). */
export interface CachedWorkspace {
  id: number;
  name: string;
  default: boolean;
  owner_id: number | null;
  members_count: number;
  /** The list's order (the personal workspace first). */
  position: number;
}

/** A notification marked read on this device that the server has not been told of yet (offline). */
export interface PendingRead {
  id: string;
}

export class UserDatabase extends Dexie {
  notifications!: Table<CachedNotification, string>;
  pendingReads!: Table<PendingRead, string>;
  drafts!: Table<DocumentDraft, string>;
  documents!: Table<CachedDocument, string>;
  workspaces!: Table<CachedWorkspace, number>;
  pins!: Table<PinItem, string>;
  offlineEntries!: Table<OfflineEntry, string>;
  offlinePartials!: Table<OfflinePartial, string>;

  constructor(name: string) {
    super(name);
    this.version(1).stores({
      notifications: '&id, created_at, read_at',
      drafts: '&entryId, updatedAt',
    });
    // The workspace selector paints offline from here.
    this.version(2).stores({ workspaces: '&id, position' });
    // Marks read made offline, sent when the network returns.
    this.version(3).stores({ pendingReads: '&id' });
    // The server's copy of documents opened on this device (drafts hold what is not saved yet).
    this.version(4).stores({ documents: '&entryId' });
    // Notifications paint in the server's order, not by time; the copy is only the first page, so it is refetched.
    this.version(5)
      .stores({ notifications: '&id, position, read_at' })
      .upgrade((tx) => tx.table('notifications').clear());
    // "Make available offline": the pins (the sync queue's items), the entries they cover, and interrupted downloads.
    this.version(6).stores({ pins: '&id, status', offlineEntries: '&entryId, version, *rootIds, parentId', offlinePartials: '&key, version' });
  }
}

export const userDatabaseName = (userId: number | string) => `drive-user-${userId}`;

const databases = new Map<string, UserDatabase>();

/** The database of one user, opened once per page or worker. */
export function userDatabase(userId: number | string): UserDatabase {
  const name = userDatabaseName(userId);
  let db = databases.get(name);
  if (!db) {
    db = new UserDatabase(name);
    databases.set(name, db);
  }
  return db;
}
