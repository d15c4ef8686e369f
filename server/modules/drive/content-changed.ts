import type { FileEntryRow } from '../../db/types.js';
import type { Thumbnails } from './thumbnails.js';

/**
 * Queues the background job that reads a file's text for content search
 * (modules/search decides which files have any); failures are the queue's to log.
 */
export type TextQueue = (entry: FileEntryRow, bytes?: Buffer) => void;

/**
 * What follows in the background whenever a file's bytes are new — created,
 * copied, replaced (upload over, WebDAV PUT or MOVE), saved by the document
 * editor, or an old version restored: its thumbnail, and its searchable text.
 */
export class ContentChanged {
  constructor(
    private readonly thumbnails: Pick<Thumbnails, 'queue'>,
    private readonly text: TextQueue | null,
  ) {}

  /** `bytes`: the whole new content when it is small and in hand (a small upload), so the text job need not read it back. */
  queue(entry: FileEntryRow, bytes?: Buffer): void {
    this.thumbnails.queue(entry);
    if (this.text && entry.type !== 'folder') this.text(entry, bytes);
  }
}
