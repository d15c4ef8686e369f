import { activeWorkspaceId, workspaceParam } from '../../../api/active-workspace';
import { buildRequest } from '../../../api/request';
import type { FileEntry } from './types';

// Addresses the browser opens itself (downloads, previews, thumbnails): built
// by the base client rules, so they carry the workspace like every call.
const workspaceId = () => workspaceParam(activeWorkspaceId());

/** GET file-entries/download?hashes=a,b: one file as itself, several or folders as a zip. */
export function downloadUrl(hashes: string[]): string {
  return buildRequest({ method: 'GET', url: 'file-entries/download', params: { hashes: hashes.join(',') }, workspaceId: workspaceId() }).url;
}

/** GET file-entries/{id}/preview. */
export function previewUrl(entry: Pick<FileEntry, 'hash'>): string {
  return buildRequest({ method: 'GET', url: `file-entries/${encodeURIComponent(entry.hash)}/preview`, workspaceId: workspaceId() }).url;
}
