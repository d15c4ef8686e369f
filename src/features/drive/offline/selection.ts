import { pinsClient, useOfflineRevision } from '../../../offline/pins/client';
import type { FileEntry } from '../api/types';
import type { OfflineSelection } from '../lib/actions';

/** What the device holds of a selection, read from the pins client. */
export function offlineSelectionOf(entries: Pick<FileEntry, 'id' | 'type'>[]): OfflineSelection {
  const states = entries.map((entry) => pinsClient.entryState(entry.id));
  return {
    allPinned: states.length > 0 && states.every((state) => state?.pinned),
    anyPinned: states.some((state) => state?.pinned),
    // A folder downloads as a zip the server builds: only files come from the device.
    allStored: states.length > 0 && entries.every((entry, i) => entry.type !== 'folder' && states[i]?.stored),
  };
}

/** The same, live. */
export function useOfflineSelection(entries: Pick<FileEntry, 'id' | 'type'>[]): OfflineSelection {
  useOfflineRevision();
  return offlineSelectionOf(entries);
}
