import { useCallback } from 'react';
import { activeWorkspaceId, workspaceParam } from '../../../api/active-workspace';
import { useUploadQueue } from '../../uploads';
import type { UploadInput } from '../../uploads';
import type { Folder } from '../api/types';
import { ROOT_HASH } from '../lib/views';

/** .DS_Store files are never uploaded (spec §2/§4). */
export function uploadableFiles(files: Iterable<File>): File[] {
  return Array.from(files).filter((file) => file.name !== '.DS_Store');
}

/**
 * Where the drive hands chosen or dropped files: the Upload button, the
 * folder picker, the SQL import picker and the drop zone all come here with
 * the folder they target, and the upload queue (run by the service worker)
 * takes them from there.
 */
export function useFilesChosen() {
  const { enqueue } = useUploadQueue();
  return useCallback(
    (files: UploadInput[], targetFolder: Folder | null, view?: 'sql') => {
      if (!files.length) return;
      // The workspace is fixed when the files are chosen: a later switch does not move them.
      const workspaceId = workspaceParam(activeWorkspaceId());
      void enqueue(files, { folderHash: targetFolder?.hash ?? ROOT_HASH, workspaceId, ...(view ? { view } : {}) });
    },
    [enqueue],
  );
}
