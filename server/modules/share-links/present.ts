import { inlinePreview, OCTET_STREAM } from '../drive/kinds.js';
import type { PresentedEntry } from '../drive/presenter.js';
import type { LinkWithEntry } from './repository.js';
import type { LinkEntryOut, ShareLinkOut } from './schemas.js';

const API = '/api/v1';

/** The page people are sent to (the app's public route). */
export const linkPagePath = (token: string) => `/drive/s/${token}`;

/** A link as its owner sees it. */
export function presentLink(row: LinkWithEntry, appUrl: string): ShareLinkOut {
  return {
    id: row.id,
    token: row.token,
    url: `${appUrl.replace(/\/$/, '')}${linkPagePath(row.token)}`,
    entry_id: row.entry_hash,
    allow_download: Boolean(row.allow_download),
    file_drop: Boolean(row.file_drop),
    notify_owner: Boolean(row.notify_owner),
    has_password: row.password_hash !== null,
    expires_at: row.expires_at,
    max_downloads: row.max_downloads,
    download_count: Number(row.download_count),
    view_count: Number(row.view_count),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/**
 * An entry as a link visitor sees it: the drive's presented entry less who
 * holds it and where, with its preview and thumbnail addressed under the link
 * (the drive's own addresses would answer a visitor 401); no preview address
 * for the kinds that have none.
 */
export function presentLinkEntry(entry: PresentedEntry, token: string): LinkEntryOut {
  const base = `${API}/shared-links/${token}`;
  return {
    id: entry.hash,
    hash: entry.hash,
    name: entry.name,
    type: entry.type,
    mime: entry.mime,
    extension: entry.extension,
    file_size: entry.file_size,
    parent_id: entry.parent_id,
    url: entry.url && inlinePreview(entry.mime ?? OCTET_STREAM, entry.type) ? `${base}/preview/${entry.hash}` : null,
    thumbnail_url: entry.thumbnail_url ? `${base}/thumbnail/${entry.hash}` : null,
    created_at: entry.created_at,
    updated_at: entry.updated_at,
    permissions: entry.permissions,
  };
}
