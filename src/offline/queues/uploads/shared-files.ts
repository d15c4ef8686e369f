import type { UploadsDatabase } from './db';
import { newUploadItem } from './new-item';
import { isIgnoredFile, readUploadSettings } from './rules';
import type { UploadItem, UploadSettings } from './types';

// Files another app shares into the installed app (the manifest's
// share_target). The service worker answers that POST itself: it writes the
// files to the upload queue as ordinary items and blobs, in the personal
// drive's root, but owned by nobody yet. The page the share lands on claims
// them for whoever is signed in there (signing in first when nobody is), and
// only then does the queue send them: the worker's idea of who is signed in
// can be stale (a sign-out does not tell it), a page's cannot.

export const SHARE_TARGET_PATH = '/share-target';
/** The drive address the share lands on; `shared` is how many files came. */
export const SHARED_LANDING = '/drive';
export const SHARED_PARAM = 'shared';
/** The owner of shared files nobody has claimed yet; the queue never sends them. */
export const UNCLAIMED = '';

const SETTINGS_KEY = 'upload-settings';

/** The page keeps the site's upload settings on the device, so a share handled offline follows them too. */
export async function rememberUploadSettings(db: UploadsDatabase, settings: UploadSettings): Promise<void> {
  const value = JSON.stringify(settings);
  if ((await db.meta.get(SETTINGS_KEY))?.value !== value) await db.meta.put({ key: SETTINGS_KEY, value });
}

/** The remembered settings, else the defaults: the server still checks every upload. */
export async function rememberedUploadSettings(db: UploadsDatabase): Promise<UploadSettings> {
  const value = (await db.meta.get(SETTINGS_KEY))?.value;
  if (!value) return readUploadSettings(undefined);
  try {
    return { ...readUploadSettings(undefined), ...(JSON.parse(value) as Partial<UploadSettings>) };
  } catch {
    return readUploadSettings(undefined);
  }
}

interface QueueOptions {
  formatSize: (bytes: number) => string;
  now?: number;
  newId?: () => string;
}

/** Shared files → unclaimed items and their bytes, in one transaction, for the personal drive's root. */
export async function queueSharedFiles(db: UploadsDatabase, files: File[], options: QueueOptions): Promise<UploadItem[]> {
  const settings = await rememberedUploadSettings(db);
  const now = options.now ?? Date.now();
  const newId = options.newId ?? (() => crypto.randomUUID());
  const built = files
    .filter((file) => !isIgnoredFile(file.name))
    .map((file, index) => ({
      file,
      ...newUploadItem(
        file,
        null,
        { folderHash: '0', workspaceId: null },
        { id: newId(), userId: UNCLAIMED, settings, formatSize: options.formatSize, now, index },
      ),
    }));
  await db.transaction('rw', db.items, db.blobs, async () => {
    await db.blobs.bulkAdd(built.filter(({ failure }) => !failure).map(({ item, file }) => ({ id: item.id, blob: file })));
    await db.items.bulkAdd(built.map(({ item }) => item));
  });
  return built.map(({ item }) => item);
}

/** The signed-in user takes every unclaimed shared file; answers the items now theirs. */
export async function claimSharedFiles(db: UploadsDatabase, userId: string): Promise<UploadItem[]> {
  if (userId === UNCLAIMED) return [];
  return db.transaction('rw', db.items, async () => {
    const unclaimed = await db.items.where('userId').equals(UNCLAIMED).toArray();
    const claimed = unclaimed.map((item) => ({ ...item, userId, updatedAt: Date.now() }));
    await db.items.bulkPut(claimed);
    return claimed;
  });
}
