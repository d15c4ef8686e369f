import { atom } from 'jotai';
import { atomWithStorage } from 'jotai/utils';
import type { FileEntry } from './api/types';
import type { DriveViewId, SortDescriptor } from './lib/views';

// The drive's UI state (jotai): layout choices that outlive a visit, and the
// dialogs and overlays any listing can open.
export type ViewMode = 'list' | 'grid';
export const viewModeAtom = atomWithStorage<ViewMode>('drive.viewMode', 'list');
export const sortAtom = atomWithStorage<Partial<Record<DriveViewId, SortDescriptor>>>('drive.sort', {});
export const detailsOpenAtom = atomWithStorage('drive.detailsOpen', false);

export type DriveDialog =
  | { type: 'newFolder'; parentId: string | null }
  | { type: 'rename'; entry: FileEntry }
  | { type: 'move'; entries: FileEntry[] }
  | { type: 'share'; entries: FileEntry[] }
  | { type: 'deleteForever'; entries: FileEntry[] }
  | { type: 'emptyTrash' };
export const dialogAtom = atom<DriveDialog | null>(null);

export interface PreviewState {
  entries: FileEntry[];
  index: number;
}
export const previewAtom = atom<PreviewState | null>(null);

/** The hash of the folder the current page uploads into: the sidebar's Upload button targets it ('0': the root). */
export const uploadTargetAtom = atom<string>('0');

/** Whether the server lets the caller upload there (the folder's permissions); null while unknown (not listed yet). */
export const uploadAllowedAtom = atom<boolean | null>(null);
