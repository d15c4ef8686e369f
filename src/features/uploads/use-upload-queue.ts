import { useCallback, useEffect, useMemo, useSyncExternalStore } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { GENERIC_ERROR_MESSAGE } from '../../api/errors';
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
import type { UploadItem } from '../../offline/queues/uploads/types';
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
    () => ({ items, enqueue, cancel: uploadQueue.cancel, retry: uploadQueue.retry, clearCompleted: uploadQueue.clearCompleted }),
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
        void refetchAfter(queryClient, driveKeys.all(item.workspaceId ?? PERSONAL_WORKSPACE));
        void refetchAfter(queryClient, driveKeys.usage);
      }),
    [queryClient],
  );
}

/**
 * Refetches what a completed write made stale. A fetch already in flight began
 * before the write landed (typically the refetch on reconnect, racing the queue
 * that the same `online` event woke), so it must not stand in for a new one.
 * invalidateQueries alone joins such a fetch when the query holds no data yet,
 * which is the case for a listing painted from the device after an offline
 * reload: its answer lacked the new file and the folder stayed without it.
 */
async function refetchAfter(queryClient: QueryClient, queryKey: QueryKey): Promise<void> {
  await queryClient.cancelQueries({ queryKey });
  await queryClient.invalidateQueries({ queryKey });
}
