import { useCallback, useEffect, useMemo } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { PERSONAL_WORKSPACE, workspaceParam, activeWorkspaceId } from '../../../api/active-workspace';
import { refetchAfterWrite } from '../../../api/query-client';
import { formatBytes } from '../../../i18n/format-size';
import { translate } from '../../../i18n/i18n';
import { pinsClient } from '../../../offline/pins/client';
import type { PinRequest } from '../../../offline/pins/types';
import { toast } from '../../../ui/toast/toast-store';
import { useBootstrap } from '../../bootstrap/store';
import { saveQueue } from '../../editor/save-queue';
import type { FileEntry } from '../api/types';
import { driveKeys } from '../api/keys';

/**
 * Keeps the user's pins running while the drive is open (the first call
 * checks them: app start), and the listings in step with what was written
 * outside this page's own mutations: a sync of pinned entries, a queued save.
 * Used once, by the drive's layout.
 */
export function useOfflineFiles(): void {
  const { user } = useBootstrap();
  const userId = user ? String(user.id) : null;
  const queryClient = useQueryClient();

  useEffect(() => {
    if (userId) void pinsClient.connect(userId);
  }, [userId]);

  useEffect(
    () =>
      pinsClient.onChanged((change) => {
        void refetchAfterWrite(queryClient, driveKeys.listings(change.workspaceId ?? PERSONAL_WORKSPACE));
      }),
    [queryClient],
  );

  useSavesRefreshDrive(userId);
}

/**
 * A finished document save makes the drive's queries stale: the document changed size and time,
 * and a conflict copy is a new entry beside it. Used by the drive's layout and by the document
 * screen, which is outside it: saves finished there must not leave the drive's cached listing
 * looking fresh for the rest of its stale time when the person goes back.
 */
export function useSavesRefreshDrive(userId: string | null): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!userId) return;
    return saveQueue.watch(userId, (item) => {
      if (item.status !== 'completed') return;
      void refetchAfterWrite(queryClient, driveKeys.all(item.workspaceId ?? PERSONAL_WORKSPACE));
      void refetchAfterWrite(queryClient, driveKeys.usage);
    });
  }, [userId, queryClient]);
}

export const pinRequestOf = (entry: Pick<FileEntry, 'id' | 'type' | 'name' | 'file_size'>): PinRequest => ({
  entryId: entry.id,
  workspaceId: workspaceParam(activeWorkspaceId()),
  type: entry.type === 'folder' ? 'folder' : 'file',
  name: entry.name,
  size: entry.file_size,
});

/** "Make available offline" and "Remove offline copy", with what they did said in a toast. */
export function usePinActions() {
  const { user } = useBootstrap();
  const userId = user ? String(user.id) : null;

  const pin = useCallback(
    async (entries: Pick<FileEntry, 'id' | 'type' | 'name' | 'file_size'>[]) => {
      if (!userId) return;
      const result = await pinsClient.pin(userId, entries.map(pinRequestOf));
      if (result.tooLarge) {
        toast.danger(
          translate('Not enough space on this device: :needed needed, :available free.', {
            needed: formatBytes(result.tooLarge.needed),
            available: formatBytes(result.tooLarge.available),
          }),
        );
        return;
      }
      if (!result.pinned.length) return;
      const message = navigator.onLine ? 'Making :count items available offline' : 'Will be made available offline when the network returns (:count items)';
      toast.positive(translate(message, { count: result.pinned.length }));
    },
    [userId],
  );

  const unpin = useCallback(
    async (entries: Pick<FileEntry, 'id'>[]) => {
      if (!userId) return;
      await pinsClient.unpin(
        userId,
        entries.map((entry) => entry.id),
      );
      toast(translate('Removed the offline copy of :count items', { count: entries.length }));
    },
    [userId],
  );

  return useMemo(() => ({ pin, unpin }), [pin, unpin]);
}
