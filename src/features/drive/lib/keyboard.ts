// The listing's keyboard (Enter, Delete, F2, arrows, Ctrl/Cmd+A, Escape) as a
// pure mapping from a key event to an action.
export type KeyAction =
  { type: 'open' } | { type: 'trash' } | { type: 'rename' } | { type: 'selectAll' } | { type: 'clear' } | { type: 'move'; delta: number; extend: boolean };

export interface KeyInput {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  shiftKey?: boolean;
  altKey?: boolean;
}

/** `columns` is 1 in the list view and the row length in the grid. */
export function keyToAction(event: KeyInput, columns = 1): KeyAction | null {
  const command = !!(event.ctrlKey || event.metaKey);
  const extend = !!event.shiftKey;
  if (event.altKey) return null;
  switch (event.key) {
    case 'Enter':
      return command ? null : { type: 'open' };
    case 'Delete':
      return { type: 'trash' };
    case 'F2':
      return { type: 'rename' };
    case 'Escape':
      return { type: 'clear' };
    case 'ArrowDown':
      return { type: 'move', delta: columns, extend };
    case 'ArrowUp':
      return { type: 'move', delta: -columns, extend };
    case 'ArrowRight':
      return columns > 1 ? { type: 'move', delta: 1, extend } : null;
    case 'ArrowLeft':
      return columns > 1 ? { type: 'move', delta: -1, extend } : null;
    case 'Home':
      return { type: 'move', delta: -Infinity, extend };
    case 'End':
      return { type: 'move', delta: Infinity, extend };
    case 'a':
    case 'A':
      return command && !extend ? { type: 'selectAll' } : null;
    default:
      return null;
  }
}
