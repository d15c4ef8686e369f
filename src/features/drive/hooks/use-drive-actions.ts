import { useCallback } from 'react';
import { useSetAtom } from 'jotai';
import { useNavigate } from 'react-router-dom';
import { getErrorMessage } from '../../../api/errors';
import { translate } from '../../../i18n/i18n';
import { toast } from '../../../ui/toast/toast-store';
import { useOnline } from '../../../ui/use-online';
import { downloadUrl, useDuplicateEntries, useMoveEntries, useRestoreEntries, useStarEntries } from '../api';
import type { FileEntry } from '../api/types';
import { disabledReason } from '../lib/actions';
import type { ActionId } from '../lib/actions';
import { folderPath } from '../lib/views';
import { documentPath, isDocument } from '../lib/documents';
import { detailsOpenAtom, dialogAtom, previewAtom } from '../state';
import { useDeleteWithToasts } from './use-delete-entries';
import { offlineSelectionOf } from '../offline/selection';
import { usePinActions } from '../offline/use-offline-files';

/** Starts a download the way a link would: the server names the file (or zip). */
export function startDownload(entries: Pick<FileEntry, 'hash'>[]): void {
  const link = document.createElement('a');
  link.href = downloadUrl(entries.map((e) => e.hash));
  link.download = '';
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
}

const failed = (error: unknown) => toast.danger(translate(getErrorMessage(error)));

/** Every entry action in one place, for the toolbar, the context menu, the keyboard and drops. */
export function useDriveActions() {
  const navigate = useNavigate();
  const online = useOnline();
  const setDialog = useSetAtom(dialogAtom);
  const setPreview = useSetAtom(previewAtom);
  const setDetails = useSetAtom(detailsOpenAtom);
  const remove = useDeleteWithToasts();
  const move = useMoveEntries();
  const copy = useDuplicateEntries();
  const star = useStarEntries();
  const restore = useRestoreEntries();
  const { mutate: moveMutate } = move;
  const pins = usePinActions();

  const moveTo = useCallback(
    (entries: FileEntry[], destinationId: string | null) => {
      const entryIds = entries.filter((e) => e.hash !== destinationId).map((e) => e.id);
      if (!entryIds.length) return;
      moveMutate(
        { entryIds, destinationId },
        { onSuccess: () => toast.positive(translate('Moved :count items', { count: entryIds.length })), onError: failed },
      );
    },
    [moveMutate],
  );

  const trash = useCallback((entries: Pick<FileEntry, 'id'>[]) => remove.run({ entryIds: entries.map((e) => e.id) }), [remove]);

  const run = useCallback(
    (action: ActionId, entries: FileEntry[], listing: FileEntry[] = entries) => {
      const first = entries[0];
      if (!first) return;
      const reason = disabledReason(action, online, offlineSelectionOf(entries));
      if (reason) {
        toast(translate(reason));
        return;
      }
      const ids = entries.map((e) => e.id);
      switch (action) {
        case 'open':
        case 'preview': {
          if (first.type === 'folder') {
            void navigate(folderPath(first.hash));
            return;
          }
          // Opening a Word document (double-click) edits it; Preview still shows it.
          if (action === 'open' && isDocument(first)) {
            void navigate(documentPath(first.hash));
            return;
          }
          const files = listing.filter((e) => e.type !== 'folder');
          setPreview({
            entries: files,
            index: Math.max(
              0,
              files.findIndex((e) => e.id === first.id),
            ),
          });
          return;
        }
        case 'download':
          startDownload(entries);
          return;
        case 'pin':
          void pins.pin(entries);
          return;
        case 'unpin':
          void pins.unpin(entries);
          return;
        case 'share':
          setDialog({ type: 'share', entries });
          return;
        case 'rename':
          setDialog({ type: 'rename', entry: first });
          return;
        case 'move':
          setDialog({ type: 'move', entries });
          return;
        case 'copy':
          copy.mutate({ entryIds: ids }, { onSuccess: () => toast.positive(translate('Copied :count items', { count: ids.length })), onError: failed });
          return;
        case 'star':
        case 'unstar':
          star.mutate({ entryIds: ids, star: action === 'star' }, { onError: failed });
          return;
        case 'details':
          setDetails(true);
          return;
        case 'trash':
          void trash(entries);
          return;
        case 'restore':
          restore.mutate(ids, { onSuccess: () => toast.positive(translate('Restored :count items', { count: ids.length })), onError: failed });
          return;
        case 'deleteForever':
          setDialog({ type: 'deleteForever', entries });
          return;
      }
    },
    [online, navigate, setPreview, setDialog, copy, star, setDetails, trash, restore, pins],
  );

  return { run, moveTo, trash, online, deleteRun: remove.run, isDeleting: remove.isPending };
}
