// Entries dragged inside the app travel as their ids under our own type, so
// native file drops (uploads) and entry drops never mix.
export const ENTRY_DRAG_TYPE = 'application/x-drive-entries';

let dragged: string[] = [];

export function startEntryDrag(dataTransfer: DataTransfer, ids: string[]): void {
  dragged = ids;
  dataTransfer.effectAllowed = 'move';
  dataTransfer.setData(ENTRY_DRAG_TYPE, JSON.stringify(ids));
  dataTransfer.setData('text/plain', ids.join(','));
}

export function endEntryDrag(): void {
  dragged = [];
}

/** The ids being dragged right now (dragover cannot read the data itself). */
export function draggedEntryIds(): string[] {
  return dragged;
}

export function isEntryDrag(dataTransfer: DataTransfer | null): boolean {
  return !!dataTransfer && Array.from(dataTransfer.types).includes(ENTRY_DRAG_TYPE);
}

export function isFileDrag(dataTransfer: DataTransfer | null): boolean {
  return !!dataTransfer && Array.from(dataTransfer.types).includes('Files');
}

export function readEntryDrag(dataTransfer: DataTransfer): string[] {
  try {
    const parsed: unknown = JSON.parse(dataTransfer.getData(ENTRY_DRAG_TYPE) || '[]');
    return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : dragged;
  } catch {
    return dragged;
  }
}
