import { useCallback } from 'react';
import { activeWorkspaceId, workspaceParam } from '../../../api/active-workspace';
import { useUploadQueue } from '../../uploads';
import type { UploadInput } from '../../uploads';

/** .DS_Store files are never uploaded (spec §2/§4). */
export function uploadableFiles(files: Iterable<File>): File[] {
  return Array.from(files).filter((file) => file.name !== '.DS_Store');
}

/**
 * Where the drive hands chosen or dropped files: the Upload button, the
 * folder picker, the SQL import picker and the drop zone all come here with
 * the hash of the folder they target — the folder in the address bar, known
 * before (or without) its listing, so an upload chosen offline never falls
 * back to the root — and the upload queue (run by the service worker) takes
 * them from there; the server checks the folder when the upload runs.
 */
export function useFilesChosen() {
  const { enqueue } = useUploadQueue();
  return useCallback(
    (files: UploadInput[], targetHash: string, view?: 'sql') => {
      if (!files.length) return;
      // The workspace is fixed when the files are chosen: a later switch does not move them.
      const workspaceId = workspaceParam(activeWorkspaceId());
      void enqueue(files, { folderHash: targetHash, workspaceId, ...(view ? { view } : {}) });
    },
    [enqueue],
  );
}
