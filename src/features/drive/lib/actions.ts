import type { IconName } from '../../../ui/icons';
import type { FileEntry } from '../api/types';
import type { DriveViewId } from './views';

// Which entry actions a selection offers (context menu and toolbar alike),
// and which of them need the server (disabled offline, with a reason).
export type ActionId =
  | 'open'
  | 'preview'
  | 'download'
  | 'pin'
  | 'unpin'
  | 'share'
  | 'rename'
  | 'move'
  | 'copy'
  | 'star'
  | 'unstar'
  | 'details'
  | 'trash'
  | 'restore'
  | 'deleteForever';

export interface ActionDef {
  id: ActionId;
  label: string;
  icon: IconName;
  /** Offline it is disabled; 'unless-stored': unless the device holds every selected entry (pinned). */
  needsServer: boolean | 'unless-stored';
  danger?: boolean;
}

export const ACTIONS: Record<ActionId, ActionDef> = {
  open: { id: 'open', label: 'Open', icon: 'folder', needsServer: false },
  // Offline, the preview says whether the device holds the file (and offers to pin it).
  preview: { id: 'preview', label: 'Preview', icon: 'visibility', needsServer: false },
  download: { id: 'download', label: 'Download', icon: 'download', needsServer: 'unless-stored' },
  // Pinning offline is remembered, and done when the network returns.
  pin: { id: 'pin', label: 'Make available offline', icon: 'offlinePin', needsServer: false },
  unpin: { id: 'unpin', label: 'Remove offline copy', icon: 'offlinePin', needsServer: false },
  share: { id: 'share', label: 'Share', icon: 'people', needsServer: true },
  rename: { id: 'rename', label: 'Rename', icon: 'edit', needsServer: true },
  move: { id: 'move', label: 'Move to', icon: 'driveFileMove', needsServer: true },
  copy: { id: 'copy', label: 'Make a copy', icon: 'copy', needsServer: true },
  star: { id: 'star', label: 'Add to starred', icon: 'starBorder', needsServer: true },
  unstar: { id: 'unstar', label: 'Remove from starred', icon: 'star', needsServer: true },
  details: { id: 'details', label: 'Details', icon: 'info', needsServer: false },
  trash: { id: 'trash', label: 'Move to trash', icon: 'delete', needsServer: true, danger: true },
  restore: { id: 'restore', label: 'Restore', icon: 'restore', needsServer: true },
  deleteForever: { id: 'deleteForever', label: 'Delete forever', icon: 'delete', needsServer: true, danger: true },
};

export const OFFLINE_REASON = 'Not available while offline';
export const NOT_STORED_REASON = "This file isn't available offline";

/** What the device holds of the selection ("Make available offline"). */
export interface OfflineSelection {
  /** Every selected entry is pinned itself. */
  allPinned: boolean;
  /** Some selected entry is pinned itself. */
  anyPinned: boolean;
  /** The device holds the bytes of every selected entry (pinned, or inside a pinned folder). */
  allStored: boolean;
}

const NOTHING_OFFLINE: OfflineSelection = { allPinned: false, anyPinned: false, allStored: false };

/** The actions for the selected entries in a view, in menu order. */
export function actionsFor(
  view: DriveViewId,
  entries: Pick<FileEntry, 'type' | 'is_starred' | 'permissions'>[],
  offline: OfflineSelection = NOTHING_OFFLINE,
): ActionId[] {
  if (!entries.length) return [];
  // Each action is offered only when the server's answer on every entry (its permissions) allows it,
  // with the action the server checks: update to rename or move, delete to trash, restore or delete.
  const all = (permission: string) => entries.every((e) => e.permissions.includes(permission));
  if (view === 'trash') return [...(all('files.delete') ? (['restore', 'deleteForever'] as const) : []), 'details'];
  const single = entries.length === 1;
  const first = entries[0]!;
  const ids: ActionId[] = [];
  if (single) ids.push(first.type === 'folder' ? 'open' : 'preview');
  // Downloading needs files.download on every entry: a view-only caller previews, and the server refuses the rest.
  if (entries.every((e) => e.permissions.includes('files.download'))) ids.push('download');
  // Sharing needs files.share on every entry (the server's answer, sent with each entry).
  if (entries.every((e) => e.permissions.includes('files.share'))) ids.push('share');
  // Bytes kept on the device are a download: a file needs download; a folder keeps what of it may be downloaded.
  if (!offline.allPinned && entries.every((e) => e.type === 'folder' || e.permissions.includes('files.download'))) ids.push('pin');
  if (offline.anyPinned) ids.push('unpin');
  if (single && all('files.update')) ids.push('rename');
  if (all('files.update')) ids.push('move');
  // A copy lands beside its original: the entry's create grant is the nearest answer the listing carries.
  if (all('files.create')) ids.push('copy');
  ids.push(entries.every((e) => e.is_starred) ? 'unstar' : 'star');
  ids.push('details');
  if (all('files.delete')) ids.push('trash');
  return ids;
}

/**
 * What the listing's Delete and F2 keys run: the menu entry they stand for, and only when the menus
 * would offer it for these entries (so a key never asks the server for what it will refuse).
 */
export function keyCommandAction(
  view: DriveViewId,
  command: 'trash' | 'rename',
  entries: Pick<FileEntry, 'type' | 'is_starred' | 'permissions'>[],
): ActionId | null {
  const action: ActionId = command === 'rename' ? 'rename' : view === 'trash' ? 'deleteForever' : 'trash';
  return actionsFor(view, entries).includes(action) ? action : null;
}

/** Entries dragged onto the sidebar's Trash: accepted only when the menus offer "Move to trash" for every one. */
export const mayDropOnTrash = (entries: Pick<FileEntry, 'type' | 'is_starred' | 'permissions'>[]): boolean => actionsFor('folder', entries).includes('trash');

/** Entries dragged onto a folder: accepted only when the menus offer "Move to" for every one. */
export const mayDropOnFolder = (entries: Pick<FileEntry, 'type' | 'is_starred' | 'permissions'>[]): boolean => actionsFor('folder', entries).includes('move');

/** Why an action cannot run now, or null when it can. */
export function disabledReason(action: ActionId, online: boolean, offline: OfflineSelection = NOTHING_OFFLINE): string | null {
  if (online) return null;
  const needs = ACTIONS[action].needsServer;
  if (needs === 'unless-stored') return offline.allStored ? null : NOT_STORED_REASON;
  return needs ? OFFLINE_REASON : null;
}
