import { useCallback } from 'react';
import { toast } from '../../../ui/toast/toast-store';
import type { Folder } from '../api/types';

// THE HOOK POINT FOR UPLOADS. The Upload button, the SQL import picker and
// the drop zone all hand their files here with the folder they target. The
// upload queue (service-worker uploads, issue "uploads") replaces the body;
// until then it only says so. Nothing is faked: no entry is created.
export const UPLOADS_PENDING_MESSAGE = 'Uploading arrives soon';

/** .DS_Store files are never uploaded (spec §2/§4). */
export function uploadableFiles(files: Iterable<File>): File[] {
  return Array.from(files).filter((file) => file.name !== '.DS_Store');
}

export function useFilesChosen() {
  return useCallback((files: File[], _targetFolder: Folder | null) => {
    if (!uploadableFiles(files).length) return;
    toast(UPLOADS_PENDING_MESSAGE);
  }, []);
}
