// Selection in a listing (click, Ctrl/Cmd, Shift ranges, arrows, select all,
// drag-box) as pure functions over the listing's ids in display order.
export interface Selection {
  /** Selected ids, in display order. */
  selected: string[];
  /** Where Shift ranges start. */
  anchor: string | null;
  /** The keyboard's current entry. */
  focused: string | null;
}

export const EMPTY_SELECTION: Selection = { selected: [], anchor: null, focused: null };

export interface Modifiers {
  /** Ctrl on Windows/Linux, Cmd on macOS: toggle one. */
  toggle?: boolean;
  /** Shift: the range from the anchor. */
  range?: boolean;
}

const inOrder = (order: string[], ids: Iterable<string>) => {
  const set = new Set(ids);
  return order.filter((id) => set.has(id));
};

function rangeBetween(order: string[], from: string | null, to: string): string[] {
  const end = order.indexOf(to);
  const start = from === null ? -1 : order.indexOf(from);
  if (end < 0) return [];
  if (start < 0) return [to];
  return order.slice(Math.min(start, end), Math.max(start, end) + 1);
}

/** A click (or tap) on an entry, with the modifiers held. */
export function clickSelect(state: Selection, order: string[], id: string, modifiers: Modifiers = {}): Selection {
  if (modifiers.range) {
    const anchor = state.anchor ?? id;
    const range = rangeBetween(order, anchor, id);
    const selected = modifiers.toggle ? inOrder(order, [...state.selected, ...range]) : range;
    return { selected, anchor, focused: id };
  }
  if (modifiers.toggle) {
    const has = state.selected.includes(id);
    const selected = has ? state.selected.filter((s) => s !== id) : inOrder(order, [...state.selected, id]);
    return { selected, anchor: id, focused: id };
  }
  return { selected: [id], anchor: id, focused: id };
}

/** Arrow keys: move focus by `delta` places; with Shift extend from the anchor. */
export function moveSelect(state: Selection, order: string[], delta: number, modifiers: Modifiers = {}): Selection {
  if (!order.length) return state;
  const current = state.focused === null ? -1 : order.indexOf(state.focused);
  const start = current < 0 ? (delta > 0 ? -1 : order.length) : current;
  const next = Math.max(0, Math.min(order.length - 1, start + delta));
  const id = order[next]!;
  if (modifiers.range) {
    const anchor = state.anchor ?? state.focused ?? id;
    return { selected: rangeBetween(order, anchor, id), anchor, focused: id };
  }
  return { selected: [id], anchor: id, focused: id };
}

export function selectAll(state: Selection, order: string[]): Selection {
  return { selected: [...order], anchor: state.anchor ?? order[0] ?? null, focused: state.focused ?? order[0] ?? null };
}

/** The drag-box result: what it covers, added to the previous selection when toggling. */
export function boxSelect(previous: Selection, order: string[], covered: string[], modifiers: Modifiers = {}): Selection {
  const selected = modifiers.toggle ? inOrder(order, [...previous.selected, ...covered]) : inOrder(order, covered);
  return { selected, anchor: selected[0] ?? null, focused: selected.at(-1) ?? previous.focused };
}

/** Keeps only ids still listed (after a refresh or a mutation). */
export function pruneSelection(state: Selection, order: string[]): Selection {
  const listed = new Set(order);
  const selected = state.selected.filter((id) => listed.has(id));
  if (selected.length === state.selected.length && (state.focused === null || listed.has(state.focused))) return state;
  return {
    selected,
    anchor: state.anchor && listed.has(state.anchor) ? state.anchor : null,
    focused: state.focused && listed.has(state.focused) ? state.focused : null,
  };
}

export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface GridLayout {
  count: number;
  columns: number;
  itemWidth: number;
  itemHeight: number;
  /** Space between items, both ways. */
  gap: number;
  /** Where the first item starts inside the scrolled content. */
  offsetTop: number;
  offsetLeft: number;
}

/** Indices of the items (laid out in rows of `columns`) that a box in content coordinates touches. */
export function indicesInBox(box: Box, layout: GridLayout): number[] {
  const { count, columns, itemWidth, itemHeight, gap, offsetTop, offsetLeft } = layout;
  const hits: number[] = [];
  const rowStride = itemHeight + gap;
  const firstRow = Math.max(0, Math.floor((box.top - offsetTop) / rowStride));
  const lastRow = Math.floor((box.bottom - offsetTop) / rowStride);
  for (let row = firstRow; row <= lastRow; row += 1) {
    const top = offsetTop + row * rowStride;
    if (top > box.bottom || top + itemHeight < box.top) continue;
    for (let column = 0; column < columns; column += 1) {
      const index = row * columns + column;
      if (index >= count) return hits;
      const left = offsetLeft + column * (itemWidth + gap);
      if (left <= box.right && left + itemWidth >= box.left) hits.push(index);
    }
  }
  return hits;
}
