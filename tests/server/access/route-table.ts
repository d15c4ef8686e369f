import type { EntryAction } from '../../../server/modules/access/actions.js';
import { multipartUpload, tusMetadata } from '../uploads/support.js';

/**
 * Every drive and upload route with the action it needs: the table the
 * access tests run against each kind of caller, in personal spaces
 * (access/routes.test.ts) and in workspaces (workspaces/drive-matrix.test.ts).
 */
export interface Fixture {
  folder: string;
  other: string;
  file: string;
  image: string;
  trashed: string;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export interface Call {
  method: Method;
  url: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export const json = (method: Method, url: string, body?: unknown): Call => ({ method, url, body });
export const tusCreate = (fx: Fixture): Call => ({
  method: 'POST',
  url: '/api/v1/tus/upload',
  headers: { 'tus-resumable': '1.0.0', 'upload-length': '5', 'upload-metadata': tusMetadata({ name: 'r.txt', parentId: fx.folder }) },
});
export const plainUpload = (fx: Fixture): Call => {
  const { body, headers } = multipartUpload({ parentId: fx.folder }, { name: 'up.txt', content: Buffer.from('hello') });
  return { method: 'POST', url: '/api/v1/file-entries', body, headers };
};

export const routes: {
  name: string;
  action: EntryAction;
  /** What else the caller needs (a copy lands beside its original: create there). */
  also?: EntryAction[];
  call: (fx: Fixture) => Call;
  ok?: number;
}[] = [
  { name: 'list a folder', action: 'files.view', call: (fx) => json('GET', `/api/v1/drive/file-entries?folderId=${fx.folder}`) },
  { name: 'folder path', action: 'files.view', call: (fx) => json('GET', `/api/v1/folders/${fx.folder}/path`) },
  { name: 'details', action: 'files.view', call: (fx) => json('GET', `/api/v1/file-entries/${fx.file}`) },
  { name: 'star', action: 'files.view', call: (fx) => json('POST', '/api/v1/file-entries/star', { entryIds: [fx.file] }) },
  { name: 'unstar', action: 'files.view', call: (fx) => json('POST', '/api/v1/file-entries/unstar', { entryIds: [fx.file] }) },
  { name: 'preview', action: 'files.view', call: (fx) => json('GET', `/api/v1/file-entries/${fx.file}/preview`) },
  { name: 'thumbnail', action: 'files.view', call: (fx) => json('GET', `/api/v1/file-entries/${fx.image}/thumbnail`) },
  { name: 'download', action: 'files.download', call: (fx) => json('GET', `/api/v1/file-entries/download?hashes=${fx.file}`) },
  {
    name: 'duplicate',
    action: 'files.download',
    also: ['files.create'],
    call: (fx) => json('POST', '/api/v1/file-entries/duplicate', { entryIds: [fx.file] }),
  },
  { name: 'create a folder', action: 'files.create', call: (fx) => json('POST', '/api/v1/folders', { name: 'New', parentId: fx.folder }) },
  { name: 'plain upload', action: 'files.create', call: plainUpload },
  { name: 'tus upload', action: 'files.create', call: tusCreate, ok: 201 },
  { name: 'rename', action: 'files.update', call: (fx) => json('PUT', `/api/v1/file-entries/${fx.file}`, { name: 'Renamed.txt' }) },
  { name: 'move', action: 'files.update', call: (fx) => json('POST', '/api/v1/file-entries/move', { entryIds: [fx.file], destinationId: fx.other }) },
  { name: 'trash', action: 'files.delete', call: (fx) => json('POST', '/api/v1/file-entries/delete', { entryIds: [fx.file] }) },
  { name: 'delete forever', action: 'files.delete', call: (fx) => json('POST', '/api/v1/file-entries/delete', { entryIds: [fx.file], deleteForever: true }) },
  { name: 'restore', action: 'files.delete', call: (fx) => json('POST', '/api/v1/file-entries/restore', { entryIds: [fx.trashed] }) },
];
