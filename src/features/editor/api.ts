import { api } from '../../api/http';
import type { DocumentContent } from '../../offline/documents/types';

// The document calls through the typed client (spec §7 file-entries/read; the
// save goes through the offline queue, see save-queue.ts).

/** The document's current content, or (versionId) one of its earlier versions, shown read-only. */
export async function readDocument(entryId: string, versionId: number | null = null) {
  const answer = await api.post('file-entries/read', versionId ? { id: entryId, versionId } : { id: entryId });
  return {
    shownVersion: answer.shownVersion ?? null,
    content: answer.data as DocumentContent,
    version: answer.version,
    name: answer.fileEntry.name,
    parentId: answer.fileEntry.parent_id,
    // What the caller may do with the file (rename, download), as the drive's menus decide from it.
    permissions: answer.fileEntry.permissions,
  };
}

/** The drive's "New document": an empty .docx in the folder. */
export async function createDocument(parentId: string | null) {
  return (await api.post('documents', { parentId })).fileEntry;
}

/** Images inserted in the editor are uploaded to the drive (the upload restrictions apply) and shown by their preview address. */
export async function uploadImages(files: File[], parentId: string | null): Promise<string[]> {
  const addresses: string[] = [];
  for (const file of files) {
    const form = new FormData();
    if (parentId) form.append('parentId', parentId);
    form.append('file', file, file.name);
    const { fileEntry } = await api.postForm('file-entries', form);
    addresses.push(`/api/v1/file-entries/${fileEntry.hash}/preview`);
  }
  return addresses;
}
