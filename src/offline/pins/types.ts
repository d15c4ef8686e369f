import type { components } from '../../api/schema';
import type { QueueItem } from '../queues/engine';

// "Make available offline" (issue 39): the contract shared by the page (pin
// buttons, badges, the Offline files page), the service worker's sync engine
// and the sign-out path. Pins and what they hold live in the user's own
// database (user-db.ts: `pins`, `offlineEntries`, `offlinePartials`); the
// bytes live in Cache Storage (bytes.ts), one cache per user.

/** How a pin looks to the user. */
export type PinState = 'up-to-date' | 'updating' | 'waiting' | 'failed';

/**
 * One pinned file or folder, an item of the pins queue (its id is the entry
 * id): `pending` means a sync is due, `inProgress` one runs, `completed` the
 * device holds the manifest's every byte, `failed` the last sync was refused.
 */
export interface PinItem extends QueueItem {
  createdAt: number;
  entryId: string;
  /** The workspace the entry lives in (its requests and its listings' database); null: personal. */
  workspaceId: number | null;
  type: 'folder' | 'file';
  name: string;
  pinnedAt: number;
  /** Bytes of every file the pin covers that the caller may download, and how many of them are on the device. */
  bytesTotal: number;
  bytesStored: number;
  filesTotal: number;
  filesStored: number;
  /** The manifest's ETag as last synced: the next refresh asks If-None-Match with it. */
  manifestEtag: string | null;
  /** When the device last held everything the manifest named. */
  syncedAt: number | null;
  /** Why the last sync failed (shown as is). */
  error: string | null;
}

/** The user's word for a pin's queue status. */
export function pinState(pin: Pick<PinItem, 'status' | 'waitingForNetwork'>): PinState {
  if (pin.status === 'completed') return 'up-to-date';
  if (pin.status === 'failed' || pin.status === 'aborted') return 'failed';
  return pin.waitingForNetwork ? 'waiting' : 'updating';
}

/** What the page hands to pin(): the entry as a listing shows it. */
export interface PinRequest {
  entryId: string;
  workspaceId: number | null;
  type: 'folder' | 'file';
  name: string;
  /** The size the listing shows (a folder's is its subtree's): checked against the free space before anything downloads. */
  size: number;
}

/** One entry of `GET file-entries/:id/offline-manifest` (the server's schema, so a change to it fails to compile here). */
export type ManifestEntry = components['schemas']['OfflineManifestEntry'];

/** The manifest: the pinned entry and every non-trashed descendant the caller may see (empty for a file). */
export type OfflineManifest = components['schemas']['OfflineManifest'];

/**
 * An entry a pin covers, as the device holds it: the manifest's line, which
 * pins cover it, and whether its bytes (and thumbnail) are stored. Folders are
 * here too (their listings are in the drive database), so "is this inside a
 * pin" and offline search read one table.
 */
export interface OfflineEntry {
  entryId: string;
  workspaceId: number | null;
  type: 'folder' | 'file';
  name: string;
  parentId: string | null;
  mime: string | null;
  size: number;
  /** The content version (sha256) the stored bytes are; null for folders. */
  version: string | null;
  updatedAt: string;
  /** The pins (root entry ids) that cover it; it leaves the device when the last one goes. */
  rootIds: string[];
  /** When the bytes of `version` were stored; null while they are not (folders: when listed). */
  storedAt: number | null;
  /** A thumbnail of `version` is stored. */
  thumbnailStored: boolean;
}

/** Bytes of an interrupted download, kept in chunks so that it resumes by Range (If-Range: the version's ETag). */
export interface OfflinePartial {
  /** `${version}:${index}` */
  key: string;
  version: string;
  index: number;
  /** The offset of this chunk in the file. */
  start: number;
  blob: Blob;
}
