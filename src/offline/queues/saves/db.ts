import Dexie from 'dexie';
import type { Table } from 'dexie';
import type { SaveItem } from './types';

// The document-save queue on the device, beside the upload queue and with its
// rules: one database for the browser, each item carrying its user.
export const SAVES_DB_NAME = 'drive-saves';

export class SavesDatabase extends Dexie {
  items!: Table<SaveItem, string>;

  constructor(name: string = SAVES_DB_NAME) {
    super(name);
    this.version(1).stores({ items: '&id, userId, status, entryId, createdAt' });
  }
}

let shared: SavesDatabase | null = null;

export function savesDatabase(): SavesDatabase {
  shared ??= new SavesDatabase();
  return shared;
}
