import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { formatBytes } from '../../i18n/format-size';
import { showUnreadBadge } from '../../offline/notifications';
import { uploadsDatabase } from '../../offline/queues/uploads/db';
import { readUploadSettings } from '../../offline/queues/uploads/rules';
import { rememberUploadSettings } from '../../offline/queues/uploads/shared-files';
import type { FileEntry } from '../../offline/queues/uploads/types';
import { useBootstrap } from '../bootstrap/store';
import { buildUploads } from '../uploads/build-uploads';
import { uploadQueue } from '../uploads/queue-client';
import { consumeLaunches } from './launch-consumer';
import type { LaunchDeps, LaunchQueueLike } from './launch-consumer';
import { claimSharedUploads } from './shared-files';

/**
 * What makes the installed app behave like an app (issue 39 item 5), run
 * once by the shell: the icon's badge follows the unread count, files shared
 * into the app are claimed for the signed-in user, and .docx files opened
 * from the OS go into the drive and the editor.
 */
export function useInstalledApp(): void {
  const { user, settings } = useBootstrap();
  const navigate = useNavigate();
  const userId = user ? String(user.id) : null;
  const unread = user?.unread_notifications_count ?? 0;

  // Signed out, the badge goes: it would tell whoever holds the device about someone else's account.
  useEffect(() => void showUnreadBadge(navigator, unread), [unread]);

  // The worker queues shared files without a page: it follows the settings the site last gave.
  useEffect(() => {
    void rememberUploadSettings(uploadsDatabase(), readUploadSettings(settings.uploads)).catch(() => undefined);
  }, [settings.uploads]);

  useEffect(() => {
    if (userId) void claimSharedUploads(userId).catch(() => undefined);
  }, [userId]);

  // The launch queue is the window's for its whole life: one consumer, reading who is signed in when a launch comes.
  const current = useRef<LaunchContext>({ userId, uploads: settings.uploads, navigate });
  useEffect(() => {
    current.current = { userId, uploads: settings.uploads, navigate };
  }, [userId, settings.uploads, navigate]);
  useEffect(() => {
    consumeLaunches(
      window as { launchQueue?: LaunchQueueLike },
      launchDeps(() => current.current),
    );
  }, []);
}

interface LaunchContext {
  userId: string | null;
  uploads: Record<string, unknown>;
  navigate: (path: string) => void | Promise<void>;
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
