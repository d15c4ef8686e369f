import { useEffect, useMemo, useState } from 'react';
import type { DragEvent } from 'react';
import { DropActivation } from '../lib/drop-activation';
import { draggedEntries, endEntryDrag, isEntryDrag, readEntryDrag } from '../lib/entry-drag';
import type { DraggedEntry } from '../lib/entry-drag';

/**
 * Makes an element a drop target for dragged entries (a folder, the sidebar
 * Trash). It activates after the 400 ms hover of spec §9; a drop before that
 * does nothing.
 */
export function useEntryDrop(options: { accepts: (entries: DraggedEntry[]) => boolean; onDrop: (entries: DraggedEntry[]) => void; disabled?: boolean }) {
  const { accepts, onDrop, disabled } = options;
  const [active, setActive] = useState(false);
  const activation = useMemo(() => new DropActivation(setActive), []);
  useEffect(() => () => activation.reset(), [activation]);

  const ours = (event: DragEvent) => !disabled && isEntryDrag(event.dataTransfer) && accepts(draggedEntries());

  const dropProps = {
    onDragEnter: (event: DragEvent) => {
      if (!ours(event)) return;
      event.preventDefault();
      activation.enter();
    },
    onDragOver: (event: DragEvent) => {
      if (!ours(event)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'move';
    },
    onDragLeave: (event: DragEvent) => {
      if (!isEntryDrag(event.dataTransfer)) return;
      activation.leave();
    },
    onDrop: (event: DragEvent) => {
      if (!isEntryDrag(event.dataTransfer)) return;
      event.preventDefault();
      event.stopPropagation();
      const entries = readEntryDrag(event.dataTransfer);
      if (activation.drop() && entries.length > 0 && accepts(entries)) onDrop(entries);
      endEntryDrag();
    },
  };
  return { isDropActive: active, dropProps };
}
