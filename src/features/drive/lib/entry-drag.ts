import type { FileEntry } from '../api/types';

// Entries dragged inside the app travel as their ids under our own type, so
// native file drops (uploads) and entry drops never mix.
export const ENTRY_DRAG_TYPE = 'application/x-drive-entries';

/** What a drop target needs of a dragged entry to decide as the menus do: the server's permissions on it. */
export type DraggedEntry = Pick<FileEntry, 'id' | 'type' | 'is_starred' | 'permissions'>;

let dragged: DraggedEntry[] = [];

export function startEntryDrag(dataTransfer: DataTransfer, entries: DraggedEntry[]): void {
  dragged = entries;
  const ids = entries.map((e) => e.id);
  dataTransfer.effectAllowed = 'move';
  dataTransfer.setData(ENTRY_DRAG_TYPE, JSON.stringify(ids));
  dataTransfer.setData('text/plain', ids.join(','));
}

export function endEntryDrag(): void {
  dragged = [];
}

/** The entries being dragged right now (dragover cannot read the data itself). */
export function draggedEntries(): DraggedEntry[] {
  return dragged;
}

export function isEntryDrag(dataTransfer: DataTransfer | null): boolean {
  return !!dataTransfer && Array.from(dataTransfer.types).includes(ENTRY_DRAG_TYPE);
}

export function isFileDrag(dataTransfer: DataTransfer | null): boolean {
  return !!dataTransfer && Array.from(dataTransfer.types).includes('Files');
}

/**
 * The dropped entries: the ids the drop carries, each with the permissions its drag started with. An id
 * this page did not start dragging (another tab's) has no known permissions, and is left out.
 */
export function readEntryDrag(dataTransfer: DataTransfer): DraggedEntry[] {
  let ids: string[];
  try {
    const parsed: unknown = JSON.parse(dataTransfer.getData(ENTRY_DRAG_TYPE) || '[]');
    ids = Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : dragged.map((e) => e.id);
  } catch {
    ids = dragged.map((e) => e.id);
  }
  const known = new Map(dragged.map((e) => [e.id, e]));
  return ids.map((id) => known.get(id)).filter((e): e is DraggedEntry => !!e);
}
