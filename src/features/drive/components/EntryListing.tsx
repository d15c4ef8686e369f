import { useCallback, useEffect, useMemo, useRef } from 'react';
import type { KeyboardEvent, MouseEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { FileEntry } from '../api/types';
import { useBoxSelect } from '../hooks/use-box-select';
import { useElementWidth } from '../hooks/use-element-width';
import { keyToAction } from '../lib/keyboard';
import { boxSelect, clickSelect, EMPTY_SELECTION, indicesInBox, moveSelect, selectAll } from '../lib/selection';
import type { Box, Selection } from '../lib/selection';
import { TypeAhead } from '../lib/type-ahead';
import type { ViewMode } from '../state';
import { EntryCard } from './EntryCard';
import { EntryRow, ROW_HEIGHT } from './EntryRow';
import { ListingItemContextValue } from './listing-context';
import type { ListingItemContext } from './listing-context';
import { entryDomId } from './use-entry-item';

const CARD_HEIGHT = 180;
const CARD_MIN_WIDTH = 170;
const GAP = 16;

export interface EntryListingProps {
  label: string;
  entries: FileEntry[];
  mode: ViewMode;
  selection: Selection;
  onSelectionChange: (selection: Selection) => void;
  onOpen: (entry: FileEntry) => void;
  onCommand: (command: 'trash' | 'rename', entries: FileEntry[]) => void;
  onContextMenu: (entries: FileEntry[], point: { x: number; y: number }) => void;
  canDrag: boolean;
  onDropOnFolder: (folder: FileEntry, ids: string[]) => void;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => void;
  formatDate: (iso: string) => string;
}

/**
 * The entries of a listing, virtualised (only rows on screen are in the DOM)
 * and paged by cursor as the end comes into view. A listbox: click, Ctrl/Cmd,
 * Shift, arrows, Ctrl+A, drag-box, Enter/Delete/F2 and type-ahead.
 */
export function EntryListing(props: EntryListingProps) {
  const { entries, mode, selection, onSelectionChange, onOpen, onCommand, onContextMenu } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const width = useElementWidth(scrollRef);
  const columns = mode === 'grid' ? Math.max(1, Math.floor((width - GAP) / (CARD_MIN_WIDTH + GAP))) : 1;
  const cardWidth = (width - GAP * (columns + 1)) / columns;
  const rowCount = Math.ceil(entries.length / columns);
  const rowHeight = mode === 'grid' ? CARD_HEIGHT + GAP : ROW_HEIGHT;
  const order = useMemo(() => entries.map((e) => e.id), [entries]);
  const byId = useMemo(() => new Map(entries.map((e) => [e.id, e])), [entries]);
  const selectedSet = useMemo(() => new Set(selection.selected), [selection.selected]);
  const typeAhead = useRef(new TypeAhead());

  // The virtualizer is read during render on purpose (positions); the compiler skips this component.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rowCount,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    paddingStart: mode === 'grid' ? GAP : 0,
    overscan: 6,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? -1;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = props;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && lastIndex >= rowCount - 5) fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, lastIndex, rowCount, fetchNextPage]);

  const selectedEntries = useCallback((s: Selection) => s.selected.map((id) => byId.get(id)).filter((e): e is FileEntry => !!e), [byId]);

  const focusIndex = (id: string | null) => {
    const index = id ? order.indexOf(id) : -1;
    if (index >= 0) virtualizer.scrollToIndex(Math.floor(index / columns));
  };

  const handleKeyDown = (event: KeyboardEvent) => {
    const command = event.ctrlKey || event.metaKey;
    if (event.key.length === 1 && !command && !event.altKey && event.key !== ' ') {
      const index = typeAhead.current.type(
        event.key,
        entries.map((e) => e.name),
      );
      const id = order[index];
      if (id) {
        onSelectionChange({ selected: [id], anchor: id, focused: id });
        focusIndex(id);
      }
      return;
    }
    const action = keyToAction(event, columns);
    if (!action) return;
    event.preventDefault();
    const current = selectedEntries(selection);
    const focused = selection.focused ? byId.get(selection.focused) : undefined;
    switch (action.type) {
      case 'move': {
        const next = moveSelect(selection, order, action.delta, { range: action.extend });
        onSelectionChange(next);
        focusIndex(next.focused);
        return;
      }
      case 'selectAll':
        onSelectionChange(selectAll(selection, order));
        return;
      case 'clear':
        onSelectionChange(EMPTY_SELECTION);
        return;
      case 'open': {
        const target = focused ?? (current.length === 1 ? current[0] : undefined);
        if (target) onOpen(target);
        return;
      }
      case 'trash':
      case 'rename':
        if (current.length) onCommand(action.type, current);
    }
  };

  const handleBox = (box: Box, additive: boolean) => {
    const indices = indicesInBox(box, {
      count: entries.length,
      columns,
      itemWidth: mode === 'grid' ? cardWidth : width,
      itemHeight: mode === 'grid' ? CARD_HEIGHT : ROW_HEIGHT,
      gap: mode === 'grid' ? GAP : 0,
      offsetTop: mode === 'grid' ? GAP : 0,
      offsetLeft: mode === 'grid' ? GAP : 0,
    });
    onSelectionChange(
      boxSelect(
        selection,
        order,
        indices.map((i) => order[i]!),
        { toggle: additive },
      ),
    );
  };
  const { box, boxProps } = useBoxSelect(scrollRef, handleBox, () => onSelectionChange(EMPTY_SELECTION));

  const context = useMemo<ListingItemContext>(
    () => ({
      isSelected: (id) => selectedSet.has(id),
      focusedId: selection.focused,
      onItemClick: (entry, event: MouseEvent) =>
        onSelectionChange(clickSelect(selection, order, entry.id, { toggle: event.ctrlKey || event.metaKey, range: event.shiftKey })),
      onItemOpen: onOpen,
      onItemContextMenu: (entry, event) => {
        event.preventDefault();
        const next = selectedSet.has(entry.id) ? selection : clickSelect(selection, order, entry.id);
        onSelectionChange(next);
        onContextMenu(selectedEntries(next), { x: event.clientX, y: event.clientY });
      },
      dragEntriesFor: (entry) => (selectedSet.has(entry.id) ? selectedEntries(selection) : [entry]),
      canDrag: props.canDrag,
      onDropOnFolder: props.onDropOnFolder,
      formatDate: props.formatDate,
    }),
    [selectedSet, selection, order, onSelectionChange, onOpen, onContextMenu, selectedEntries, props.canDrag, props.onDropOnFolder, props.formatDate],
  );

  return (
    <ListingItemContextValue.Provider value={context}>
      <div
        ref={scrollRef}
        role="listbox"
        aria-label={props.label}
        aria-multiselectable="true"
        aria-activedescendant={selection.focused && byId.has(selection.focused) ? entryDomId(selection.focused) : undefined}
        tabIndex={0}
        onKeyDown={handleKeyDown}
        {...boxProps}
        className="relative min-h-0 flex-1 overflow-auto outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-primary/40"
      >
        <div className="relative w-full" style={{ height: virtualizer.getTotalSize() + (mode === 'grid' ? GAP : 0) }}>
          {items.map((row) =>
            mode === 'list' ? (
              <EntryRow key={entries[row.index]!.id} entry={entries[row.index]!} style={{ top: row.start, height: ROW_HEIGHT }} />
            ) : (
              entries
                .slice(row.index * columns, row.index * columns + columns)
                .map((entry, column) => (
                  <EntryCard
                    key={entry.id}
                    entry={entry}
                    style={{ top: row.start, left: GAP + column * (cardWidth + GAP), width: cardWidth, height: CARD_HEIGHT }}
                  />
                ))
            ),
          )}
          {box && (
            <div
              aria-hidden="true"
              className="pointer-events-none absolute z-10 border border-primary bg-primary/10"
              style={{ left: box.left, top: box.top, width: box.right - box.left, height: box.bottom - box.top }}
            />
          )}
        </div>
      </div>
    </ListingItemContextValue.Provider>
  );
}
