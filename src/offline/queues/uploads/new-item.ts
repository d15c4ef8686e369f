import { checkRestrictions, chooseMethod, fileExtension } from './rules';
import type { RestrictionFailure } from './rules';
import type { UploadItem, UploadSettings } from './types';

/** Where a new item goes: a folder hash ('0' for the root) in a workspace (null: the personal one). */
export interface NewItemTarget {
  folderHash: string;
  workspaceId: number | null;
  /** The SQL backups view accepts only .sql and .bak files. */
  sqlOnly?: boolean;
}

export interface NewItemOptions {
  id: string;
  userId: string;
  settings: UploadSettings;
  formatSize: (bytes: number) => string;
  now: number;
  /** Its place among the files queued together. */
  index: number;
}

/**
 * One file → one queue item, the same record whoever queues it (a page's
 * picker or drop, the worker's share target). A file that breaks a
 * restriction is recorded as failed with its message and keeps no bytes.
 */
export function newUploadItem(
  file: Pick<File, 'name' | 'size' | 'type' | 'lastModified'>,
  relativePath: string | null,
  target: NewItemTarget,
  options: NewItemOptions,
): { item: UploadItem; failure: RestrictionFailure | null } {
  const mime = file.type || 'application/octet-stream';
  const failure = checkRestrictions({ name: file.name, size: file.size, mime }, options.settings, options.formatSize, { sqlOnly: target.sqlOnly });
  const item: UploadItem = {
    id: options.id,
    userId: options.userId,
    name: file.name,
    size: file.size,
    mime,
    extension: fileExtension(file.name),
    relativePath,
    lastModified: file.lastModified,
    folderHash: target.folderHash,
    workspaceId: target.workspaceId,
    method: chooseMethod(file.size, options.settings),
    chunkSize: options.settings.chunkSize,
    status: failure ? 'failed' : 'pending',
    bytesUploaded: 0,
    percentage: 0,
    tusUrl: null,
    s3Upload: null,
    entry: null,
    onConflict: 'ask',
    nameTaken: false,
    errorMessage: failure?.message ?? null,
    errorValues: failure?.values ?? null,
    retryable: !failure,
    waitingForNetwork: false,
    // Keeps the chosen order when many files arrive in the same millisecond.
    createdAt: options.now + options.index / 1000,
    updatedAt: options.now,
  };
  return { item, failure };
}
