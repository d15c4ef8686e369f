import type { DocumentContent } from '../../documents/types';
import type { QueueItem } from '../engine';

// A document save waiting to reach the server (DESIGN §6), shared by the page
// that queues it and the service worker that sends it.

export type SaveOutcome = 'saved' | 'conflict';

export interface SaveItem extends QueueItem {
  entryId: string;
  /** The document's name, for the conflict copy's name. */
  name: string;
  workspaceId: number | null;
  content: DocumentContent;
  /** The server version the content was edited from: the save is conditional on it. */
  baseVersion: string;
  /** The draft's time when queued: a draft changed after it is newer than this save and is kept. */
  draftUpdatedAt: number;
  createdAt: number;
  outcome: SaveOutcome | null;
  /** The version the server gave the saved content. */
  version: string | null;
  /** Where a conflict's local version went. */
  copyName: string | null;
  errorMessage: string | null;
}
