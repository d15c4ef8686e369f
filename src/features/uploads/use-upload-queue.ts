import { useCallback, useEffect, useMemo, useSyncExternalStore } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { GENERIC_ERROR_MESSAGE } from '../../api/errors';
import { refetchAfterWrite } from '../../api/query-client';
import { translate } from '../../i18n/i18n';
import { toast } from '../../ui/toast/toast-store';
import { PERSONAL_WORKSPACE } from '../../api/active-workspace';
import { useBootstrap } from '../bootstrap/store';
import { driveKeys } from '../drive/api/keys';
import { formatBytes } from '../../i18n/format-size';
import { buildUploads } from './build-uploads';
import type { UploadTarget } from './build-uploads';
import type { UploadInput } from './files';
import { readUploadSettings } from '../../offline/queues/uploads/rules';
import type { ConflictChoice, UploadItem } from '../../offline/queues/uploads/types';
import { uploadQueue } from './queue-client';

export interface UploadQueueOptions {
  /** Show restriction failures as toasts too (spec §8 "as a toast when so configured"). */
  restrictionToasts?: boolean;
}

export interface UploadQueue {
  items: UploadItem[];
  enqueue: (files: UploadInput[], target: UploadTarget) => Promise<void>;
  cancel: (id: string) => Promise<void>;
  retry: (id: string) => Promise<void>;
  /** Replace or Keep both, for an item whose name is taken. */
  resolve: (id: string, choice: ConflictChoice) => Promise<void>;
  clearCompleted: () => Promise<void>;
}

/** The signed-in user's upload queue, shared by every component and open page. */
export function useUploadQueue({ restrictionToasts = true }: UploadQueueOptions = {}): UploadQueue {
  const { user, settings } = useBootstrap();
  const userId = user ? String(user.id) : null;
  const items = useSyncExternalStore(uploadQueue.subscribe, uploadQueue.getItems, uploadQueue.getItems);

  useEffect(() => {
    if (userId) void uploadQueue.connect(userId);
  }, [userId]);

  const enqueue = useCallback(
    async (files: UploadInput[], target: UploadTarget) => {
      if (!userId) return;
      const built = buildUploads(files, target, { userId, settings: readUploadSettings(settings.uploads), formatSize: formatBytes });
      if (restrictionToasts) {
        for (const failure of built.failures) toast.danger(translate(failure.message, failure.values));
      }
      try {
        await uploadQueue.add(built.items, built.blobs);
      } catch {
        // IndexedDB refused (device storage full, private mode): say so rather than lose the files quietly.
        toast.danger(translate(GENERIC_ERROR_MESSAGE));
      }
    },
    [userId, settings.uploads, restrictionToasts],
  );

  return useMemo(
    () => ({ items, enqueue, cancel: uploadQueue.cancel, retry: uploadQueue.retry, resolve: uploadQueue.resolve, clearCompleted: uploadQueue.clearCompleted }),
    [items, enqueue],
  );
}

/**
 * When an upload lands, the listings of the workspace it landed in (whichever
 * is active now) and the storage summary refresh. Used once, by the panel
 * that the drive layout always renders.
 */
export function useRefreshOnUploadCompleted(): void {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      uploadQueue.onCompleted((item) => {
        void refetchAfterWrite(queryClient, driveKeys.all(item.workspaceId ?? PERSONAL_WORKSPACE));
        void refetchAfterWrite(queryClient, driveKeys.usage);
      }),
    [queryClient],
  );
}
