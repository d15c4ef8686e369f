import { createContext, useContext } from 'react';
import type { MouseEvent } from 'react';
import type { FileEntry } from '../api/types';

/** What every row and card of a listing needs from it, without prop chains. */
export interface ListingItemContext {
  isSelected: (id: string) => boolean;
  focusedId: string | null;
  onItemClick: (entry: FileEntry, event: MouseEvent) => void;
  onItemOpen: (entry: FileEntry) => void;
  onItemContextMenu: (entry: FileEntry, event: MouseEvent) => void;
  /** The entries a drag starting on this entry carries (the selection when it includes it). */
  dragEntriesFor: (entry: FileEntry) => FileEntry[];
  canDrag: boolean;
  onDropOnFolder: (folder: FileEntry, ids: string[]) => void;
  formatDate: (iso: string) => string;
}

export const ListingItemContextValue = createContext<ListingItemContext | null>(null);

export function useListingItemContext(): ListingItemContext {
  const value = useContext(ListingItemContextValue);
  if (!value) throw new Error('Listing items render inside a listing');
  return value;
}
