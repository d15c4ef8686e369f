import type { DragEvent, MouseEvent } from 'react';
import type { FileEntry } from '../api/types';
import { useEntryDrop } from '../hooks/use-entry-drop';
import { mayDropOnFolder } from '../lib/actions';
import { endEntryDrag, startEntryDrag } from '../lib/entry-drag';
import { useListingItemContext } from './listing-context';

export const entryDomId = (id: string) => `entry-${id}`;

/** The props a row or card shares: option semantics, selection, opening, dragging and (folders) dropping. */
export function useEntryItem(entry: FileEntry) {
  const ctx = useListingItemContext();
  const isFolder = entry.type === 'folder';
  const { isDropActive, dropProps } = useEntryDrop({
    disabled: !isFolder || !ctx.canDrag,
    // The same rule as the menus' "Move to": every dragged entry may be changed, and none is the folder itself.
    accepts: (dragged) => !dragged.some((e) => e.id === entry.id) && mayDropOnFolder(dragged),
    onDrop: (dragged) =>
      ctx.onDropOnFolder(
        entry,
        dragged.map((e) => e.id),
      ),
  });
  const selected = ctx.isSelected(entry.id);
  const itemProps = {
    id: entryDomId(entry.id),
    role: 'option' as const,
    'aria-selected': selected,
    'data-entry-id': entry.id,
    'data-focused': ctx.focusedId === entry.id || undefined,
    'data-drop-active': isDropActive || undefined,
    draggable: ctx.canDrag,
    onClick: (event: MouseEvent) => ctx.onItemClick(entry, event),
    onDoubleClick: () => ctx.onItemOpen(entry),
    onContextMenu: (event: MouseEvent) => ctx.onItemContextMenu(entry, event),
    onDragStart: (event: DragEvent) => startEntryDrag(event.dataTransfer, ctx.dragEntriesFor(entry)),
    onDragEnd: () => endEntryDrag(),
    ...(isFolder ? dropProps : {}),
  };
  return { itemProps, selected, isDropActive, formatDate: ctx.formatDate };
}
