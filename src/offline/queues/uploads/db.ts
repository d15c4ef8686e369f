import Dexie from 'dexie';
import type { Table } from 'dexie';
import type { UploadBlob, UploadItem } from './types';

// The upload queue on the device (DESIGN §6): pages add items, the service
// worker runs them. One database for all users of the browser; each item
// carries its user, and only that user's session ever sends it.
export const UPLOADS_DB_NAME = 'drive-uploads';

export interface QueueMeta {
  key: string;
  value: string | null;
}

export class UploadsDatabase extends Dexie {
  items!: Table<UploadItem, string>;
  blobs!: Table<UploadBlob, string>;
  /** Held the signed-in user before the queue host's session store (queues/session.ts); unused since. */
  meta!: Table<QueueMeta, string>;

  constructor(name: string = UPLOADS_DB_NAME) {
    super(name);
    this.version(1).stores({
      items: '&id, userId, status, createdAt',
      blobs: '&id',
      meta: '&key',
    });
  }
}

let shared: UploadsDatabase | null = null;

/** The queue database, opened once per page or worker. */
export function uploadsDatabase(): UploadsDatabase {
  shared ??= new UploadsDatabase();
  return shared;
}
