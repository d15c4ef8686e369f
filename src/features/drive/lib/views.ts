import { listingKeyOf } from '../../../offline/listing-cache';
import type { Folder, ListQuery, OrderBy, OrderDir } from '../api/types';

// Spec §3 "Drive listing view" and §9 sorts: one definition per route.
export type DriveViewId = 'folder' | 'recent' | 'sql' | 'search' | 'shares' | 'trash' | 'starred';
export type ViewFlag = 'recentOnly' | 'sqlOnly' | 'sharedOnly' | 'deletedOnly' | 'starredOnly';

export interface SortDescriptor {
  orderBy: OrderBy;
  orderDir: OrderDir;
}

export interface DriveView {
  id: DriveViewId;
  /** The sidebar's name for it (English key). */
  label: string;
  path: string;
  sort: SortDescriptor;
  flags: Partial<Record<ViewFlag, true>>;
  /** The page has its own actions (new folder, upload, empty trash). */
  hasActions: boolean;
  /** Whether files may be uploaded here, given the listed folder (null when none is listed). */
  canUpload: (folder: Folder | null) => boolean;
}

export const DEFAULT_SORT: SortDescriptor = { orderBy: 'updated_at', orderDir: 'desc' };
const NEWEST_FIRST: SortDescriptor = { orderBy: 'created_at', orderDir: 'desc' };
const never = () => false;

/** A folder allows upload when its permissions include 'files.update' (spec §6). */
export const folderAllowsUpload = (folder: Folder | null) => !!folder?.permissions.includes('files.update');

export const ROOT_HASH = '0';

export const DRIVE_VIEWS: Record<DriveViewId, DriveView> = {
  folder: { id: 'folder', label: 'My drive', path: '/drive', sort: DEFAULT_SORT, flags: {}, hasActions: true, canUpload: folderAllowsUpload },
  recent: { id: 'recent', label: 'Recent', path: '/drive/recent', sort: NEWEST_FIRST, flags: { recentOnly: true }, hasActions: false, canUpload: never },
  // The SQL view always allows upload (spec §6).
  sql: { id: 'sql', label: 'SQL backups', path: '/drive/sql', sort: NEWEST_FIRST, flags: { sqlOnly: true }, hasActions: true, canUpload: () => true },
  search: { id: 'search', label: 'Search', path: '/drive/search', sort: DEFAULT_SORT, flags: {}, hasActions: false, canUpload: never },
  shares: {
    id: 'shares',
    label: 'Shared with me',
    path: '/drive/shares',
    sort: DEFAULT_SORT,
    flags: { sharedOnly: true },
    hasActions: false,
    canUpload: never,
  },
  trash: { id: 'trash', label: 'Trash', path: '/drive/trash', sort: DEFAULT_SORT, flags: { deletedOnly: true }, hasActions: true, canUpload: never },
  starred: { id: 'starred', label: 'Starred', path: '/drive/starred', sort: DEFAULT_SORT, flags: { starredOnly: true }, hasActions: false, canUpload: never },
};

/** Sidebar order. */
export const SIDEBAR_VIEWS: DriveViewId[] = ['folder', 'recent', 'sql', 'search', 'shares', 'starred', 'trash'];

export function folderPath(hash: string): string {
  return hash === ROOT_HASH ? '/drive' : `/drive/folders/${hash}`;
}

export interface SearchFilters {
  query?: string;
  type?: ListQuery['type'];
  modifiedFrom?: string;
  modifiedTo?: string;
  /** Also inside files' text (the search view's default; `content=0` in the address turns it off). */
  content?: boolean;
}

export interface ListingParams {
  view: DriveViewId;
  folderId: string;
  sort: SortDescriptor;
  search?: SearchFilters;
}

export const hasSearchInput = (search: SearchFilters | undefined) =>
  !!(search && (search.query?.trim() || search.type || search.modifiedFrom || search.modifiedTo));

/** The query string of GET drive/file-entries for a listing (flags as 'true'). */
export function listingQuery(params: ListingParams, cursor: string | null, perPage: number): ListQuery {
  const view = DRIVE_VIEWS[params.view];
  const query: ListQuery = { perPage, orderBy: params.sort.orderBy, orderDir: params.sort.orderDir };
  if (params.view === 'folder' || params.view === 'search') query.folderId = params.folderId;
  for (const flag of Object.keys(view.flags) as ViewFlag[]) query[flag] = 'true';
  const search = params.search;
  if (search?.query?.trim()) {
    query.query = search.query.trim();
    if (search.content) query.content = 'true';
  }
  if (search?.type) query.type = search.type;
  if (search?.modifiedFrom) query.modifiedFrom = search.modifiedFrom;
  if (search?.modifiedTo) query.modifiedTo = search.modifiedTo;
  if (cursor) query.cursor = cursor;
  return query;
}

/** One stable string per listing: the offline cache's key. */
export function listingKey(params: ListingParams): string {
  const { view, folderId, sort, search } = params;
  const folder = view === 'folder' || view === 'search' ? folderId : '';
  const filters = search
    ? [search.query?.trim() ?? '', search.type ?? '', search.modifiedFrom ?? '', search.modifiedTo ?? '', search.content ? 'content' : ''].join('|')
    : '';
  return listingKeyOf(view, folder, sort.orderBy, sort.orderDir, filters);
}
