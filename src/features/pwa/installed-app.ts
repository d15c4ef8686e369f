import { formatBytes } from '../../i18n/format-size';
import { readUploadSettings } from '../../offline/queues/uploads/rules';
import type { FileEntry } from '../../offline/queues/uploads/types';
import { buildUploads } from '../uploads/build-uploads';
import { uploadQueue } from '../uploads/queue-client';
import { consumeLaunches } from './launch-consumer';
import type { LaunchDeps, LaunchQueueLike } from './launch-consumer';

// The installed app's work that needs the upload queue and IndexedDB (Dexie): loaded by
// use-installed-app.ts once the page is up, for a signed-in user or an installed app's launches, not with the
// entry (a sign-in page needs none of it).

export { claimSharedUploads } from './shared-files';

export interface LaunchContext {
  userId: string | null;
  uploads: Record<string, unknown>;
  navigate: (path: string) => void | Promise<void>;
}

/** Takes the window's launches, reading who is signed in when one comes. */
export function startLaunches(scope: { launchQueue?: LaunchQueueLike }, context: () => LaunchContext): boolean {
  return consumeLaunches(scope, launchDeps(context));
}

/** Launches while signed out go nowhere: the sign-in page comes first, and the OS can open the file again. */
function launchDeps(context: () => LaunchContext): LaunchDeps {
  return {
    upload: async (files) => {
      const { userId, uploads } = context();
      if (!userId) return [];
      await uploadQueue.connect(userId);
      const built = buildUploads(files, { folderHash: '0', workspaceId: null }, { userId, settings: readUploadSettings(uploads), formatSize: formatBytes });
      await uploadQueue.add(built.items, built.blobs);
      return built.items.filter((item) => item.status !== 'failed').map((item) => item.id);
    },
    whenUploaded: (itemId) =>
      new Promise<FileEntry>((resolve) => {
        const stop = uploadQueue.onCompleted((item) => {
          if (item.id !== itemId || !item.entry) return;
          stop();
          resolve(item.entry);
        });
      }),
    open: (path) => void context().navigate(path),
  };
}
