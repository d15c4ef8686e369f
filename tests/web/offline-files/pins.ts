import type { PinItem } from '../../../src/offline/pins/types';

/** A pin as the store keeps it; a completed folder unless overridden. */
export function makePin(overrides: Partial<PinItem> & { id: string }): PinItem {
  return {
    userId: '1',
    status: 'completed',
    waitingForNetwork: false,
    createdAt: 1,
    updatedAt: 1,
    entryId: overrides.id,
    workspaceId: null,
    type: 'folder',
    name: overrides.id,
    pinnedAt: 1,
    bytesTotal: 0,
    bytesStored: 0,
    filesTotal: 0,
    filesStored: 0,
    manifestEtag: null,
    syncedAt: null,
    error: null,
    ...overrides,
  };
}
