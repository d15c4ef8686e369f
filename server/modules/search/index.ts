import type { Db } from '../../db/index.js';
import type { FileEntryRow } from '../../db/types.js';
import type { DriveFacade } from '../drive/facade.js';
import type { ContentSearch } from '../drive/listing.js';
import { contentKind, EXTRACTOR_VERSION, extractText, readLimit } from './extract.js';
import { indexedWords, queryWords, snippet, type Segment } from './fold.js';
import { contentMatch, saveContents, storedVersions, textsOf, type ContentWrite } from './repository.js';
import { HeldBodies } from './held-bodies.js';

interface Logger {
  warn(object: object, message: string): void;
}

export interface SearchDeps {
  db: Db;
  drive: Pick<DriveFacade, 'filesForIndex' | 'contentForIndex'>;
  log: Logger;
}

/**
 * Content search (issue 35, part 1): a background job reads a file's text
 * (extract.ts) into `file_contents` and the dialect's full-text index; the
 * drive listing asks `listing` for the condition and the snippets.
 */
export function createSearch({ db, drive, log }: SearchDeps) {
  const kysely = db.kysely;
  const held = new HeldBodies();

  /**
   * The job, for a batch of files as they are now (each may have been
   * replaced again, or be gone): one look-up of their rows and stored
   * versions, each file's text read unless it is there already for these
   * bytes, and one transaction for all that changed.
   */
  async function extract(entryIds: number[]): Promise<void> {
    const ids = [...new Set(entryIds)];
    const files = new Map((await drive.filesForIndex(ids)).map((entry) => [entry.id, entry]));
    const stored = await storedVersions(kysely, ids);
    const cleared: number[] = [];
    const written: ContentWrite[] = [];
    for (const entryId of ids) {
      const entry = files.get(entryId);
      const body = held.take(entryId, entry?.sha256);
      const kind = entry ? contentKind(entry.mime, entry.extension) : null;
      const previous = stored.get(entryId);
      // Gone, or no kind with text: its stored text (if any) goes.
      if (!entry || !kind) {
        if (previous) cleared.push(entryId);
        continue;
      }
      if (previous && previous.sha256 === entry.sha256 && previous.extractor_version === EXTRACTOR_VERSION) continue;
      const limit = readLimit(kind);
      const base = { entryId, sha256: entry.sha256 };
      // A document bigger than its limit is not read at all: its row says so.
      if (kind !== 'text' && Number(entry.file_size) > limit) {
        written.push({ row: { ...base, status: 'too_large', text: '', truncated: false }, indexed: '' });
        continue;
      }
      // A small new file's bytes came along from its upload: not read back from the disk.
      const read = body ? { bytes: body.subarray(0, limit), complete: body.length <= limit } : await drive.contentForIndex(entry, limit);
      if (!read) {
        if (previous) cleared.push(entryId);
        continue;
      }
      const extracted = await extractText(kind, read.bytes, !read.complete);
      if (extracted.status === 'failed' || extracted.status === 'too_large')
        log.warn({ entryId, reason: extracted.reason }, `text not extracted: ${extracted.status}`);
      written.push({
        row: { ...base, status: extracted.status, text: extracted.text, truncated: extracted.truncated },
        indexed: extracted.status === 'ok' ? indexedWords(extracted.text) : '',
      });
    }
    await saveContents(kysely, db.dialect, { cleared, written }, EXTRACTOR_VERSION, new Date().toISOString());
  }

  const listing: ContentSearch = {
    condition(query) {
      const terms = queryWords(query);
      return terms.length ? contentMatch(db.dialect, terms) : null;
    },
    async snippets(ids, query) {
      const terms = queryWords(query);
      const out = new Map<number, Segment[]>();
      for (const [id, text] of await textsOf(kysely, ids)) {
        const segments = snippet(text, terms);
        if (segments) out.set(id, segments);
      }
      return out;
    },
  };

  return {
    extract,
    listing,
    /** A new file's bytes, in hand from its upload, for its text job to read instead of the disk (HeldBodies). */
    hold: (entry: Pick<FileEntryRow, 'id' | 'sha256'>, bytes: Buffer) => held.hold(entry, bytes),
    /** Entries whose bytes wait for their job (tests). */
    held: () => held.size,
  };
}

export type Search = ReturnType<typeof createSearch>;
