import { newUploadItem } from '../../offline/queues/uploads/new-item';
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
    const { item, failure } = newUploadItem(
      file,
      relativePath,
      { folderHash: target.folderHash, workspaceId: target.workspaceId, sqlOnly: target.view === 'sql' },
      { id: newId(), userId: options.userId, settings: options.settings, formatSize: options.formatSize, now, index },
    );
    built.items.push(item);
    if (failure) built.failures.push(failure);
    else built.blobs.push({ id: item.id, blob: file });
  });
  return built;
}
