import type { FileEntryRow } from '../../db/types.js';
import { displayName } from '../users/presenter.js';
import { inlinePreview, OCTET_STREAM, THUMBNAIL_MIMES } from './kinds.js';

/** An entry row with what the wire shape needs from around it. */
export interface EntryWithRelations extends FileEntryRow {
  parent_hash: string | null;
  starred_by: number | null;
  /** Shared with anyone or by a link (the listing's shared marker); 0/1 on SQLite, a boolean on PostgreSQL. */
  shared?: number | boolean | null;
  owner_first_name?: string | null;
  owner_last_name?: string | null;
  owner_email?: string | null;
}

/** What presentEntry reads of a row. */
export type PresentableEntry = Pick<
  EntryWithRelations,
  | 'hash'
  | 'name'
  | 'description'
  | 'type'
  | 'mime'
  | 'extension'
  | 'file_size'
  | 'parent_hash'
  | 'owner_id'
  | 'owner_first_name'
  | 'owner_last_name'
  | 'owner_email'
  | 'workspace_id'
  | 'starred_by'
  | 'shared'
  | 'created_at'
  | 'updated_at'
  | 'deleted_at'
  | 'purge_at'
>;

const API = '/api/v1';

/**
 * The wire shape of a file entry, decided once. The public id is the random
 * hash: numeric ids, storage keys and paths stay on the server. `permissions`
 * are the actions the caller's grant on the entry allows (access/policy.ts).
 */
export function presentEntry(row: PresentableEntry, permissions: string[]) {
  const isFile = row.type !== 'folder';
  return {
    id: row.hash,
    hash: row.hash,
    name: row.name,
    description: row.description,
    type: row.type,
    mime: row.mime,
    extension: row.extension,
    file_size: Number(row.file_size),
    parent_id: row.parent_hash,
    owner_id: row.owner_id,
    // Who holds it: Shared with me shows whose entries they are.
    owner_name: row.owner_email
      ? displayName({ first_name: row.owner_first_name ?? null, last_name: row.owner_last_name ?? null, email: row.owner_email })
      : null,
    workspace_id: row.workspace_id ?? 0,
    is_starred: row.starred_by !== null,
    is_shared: Boolean(row.shared),
    // Only kinds that have a preview get its address: for the others it answers 404.
    url: isFile && inlinePreview(row.mime ?? OCTET_STREAM, row.type) ? `${API}/file-entries/${row.hash}/preview` : null,
    // Made in the background after upload, or on the first request.
    thumbnail_url: row.mime && THUMBNAIL_MIMES.has(row.mime) ? `${API}/file-entries/${row.hash}/thumbnail` : null,
    created_at: row.created_at,
    updated_at: row.updated_at,
    deleted_at: row.deleted_at,
    purge_at: row.deleted_at ? (row.purge_at ?? null) : null,
    permissions,
  };
}

export type PresentedEntry = ReturnType<typeof presentEntry>;

export function presentCrumb(row: Pick<FileEntryRow, 'hash' | 'name'>) {
  return { id: row.hash, hash: row.hash, name: row.name };
}
