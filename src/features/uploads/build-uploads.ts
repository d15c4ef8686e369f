import { checkRestrictions, chooseMethod, fileExtension } from '../../offline/queues/uploads/rules';
import type { RestrictionFailure } from '../../offline/queues/uploads/rules';
import type { UploadBlob, UploadItem, UploadSettings } from '../../offline/queues/uploads/types';
import { toFileWithPath, withoutIgnored } from './files';
import type { UploadInput } from './files';

export interface UploadTarget {
  /** Folder hash, '0' for the root. */
  folderHash: string;
  workspaceId: number | null;
  /** The SQL backups view accepts only .sql and .bak files. */
  view?: 'sql';
}

export interface BuiltUploads {
  items: UploadItem[];
  blobs: UploadBlob[];
  /** Restriction failures: listed as failed items too, shown as toasts when asked. */
  failures: RestrictionFailure[];
}

interface BuildOptions {
  userId: string;
  settings: UploadSettings;
  formatSize: (bytes: number) => string;
  now?: number;
  newId?: () => string;
}

/**
 * Files → queue items. A file that breaks a restriction is recorded as failed
 * with its message (never silently skipped) and its bytes are not copied.
 */
export function buildUploads(inputs: UploadInput[], target: UploadTarget, options: BuildOptions): BuiltUploads {
  const now = options.now ?? Date.now();
  const newId = options.newId ?? (() => crypto.randomUUID());
  const built: BuiltUploads = { items: [], blobs: [], failures: [] };
  withoutIgnored(inputs).forEach((input, index) => {
    const { file, relativePath } = toFileWithPath(input);
    const mime = file.type || 'application/octet-stream';
    const failure = checkRestrictions({ name: file.name, size: file.size, mime }, options.settings, options.formatSize, {
      sqlOnly: target.view === 'sql',
    });
    const item: UploadItem = {
      id: newId(),
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
      errorMessage: failure?.message ?? null,
      errorValues: failure?.values ?? null,
      retryable: !failure,
      waitingForNetwork: false,
      // Keeps the chosen order when many files arrive in the same millisecond.
      createdAt: now + index / 1000,
      updatedAt: now,
    };
    built.items.push(item);
    if (failure) built.failures.push(failure);
    else built.blobs.push({ id: item.id, blob: file });
  });
  return built;
}
