import type { Db } from '../../db/index.js';
import type { DriveFacade } from '../drive/facade.js';
import type { ContentSearch } from '../drive/listing.js';
import { contentKind, EXTRACTOR_VERSION, extractText, readLimit } from './extract.js';
import { indexedWords, queryWords, snippet, type Segment } from './fold.js';
import { contentMatch, deleteContent, saveContent, storedVersion, textsOf } from './repository.js';

interface Logger {
  warn(object: object, message: string): void;
}

export interface SearchDeps {
  db: Db;
  drive: Pick<DriveFacade, 'readForIndex'>;
  log: Logger;
}

/**
 * Content search (issue 35, part 1): a background job reads a file's text
 * (extract.ts) into `file_contents` and the dialect's full-text index; the
 * drive listing asks `listing` for the condition and the snippets.
 */
export function createSearch({ db, drive, log }: SearchDeps) {
  const kysely = db.kysely;

  /** The job: the file as it is now (it may have been replaced again, or be gone). */
  async function extract(entryId: number): Promise<void> {
    const head = await drive.readForIndex(entryId, 0);
    if (!head) return deleteContent(kysely, entryId);
    const kind = contentKind(head.entry.mime, head.entry.extension);
    if (!kind) return deleteContent(kysely, entryId);
    const stored = await storedVersion(kysely, entryId);
    if (stored && stored.sha256 === head.entry.sha256 && stored.extractor_version === EXTRACTOR_VERSION) return;
    const limit = readLimit(kind);
    const now = new Date().toISOString();
    const base = { entryId, sha256: head.entry.sha256 };
    // A document bigger than its limit is not read at all: its row says so.
    if (kind !== 'text' && Number(head.entry.file_size) > limit) {
      return saveContent(kysely, db.dialect, { ...base, status: 'too_large', text: '', truncated: false }, '', EXTRACTOR_VERSION, now);
    }
    const read = await drive.readForIndex(entryId, limit);
    if (!read) return deleteContent(kysely, entryId);
    const extracted = await extractText(kind, read.bytes, !read.complete);
    if (extracted.status === 'failed' || extracted.status === 'too_large')
      log.warn({ entryId, reason: extracted.reason }, `text not extracted: ${extracted.status}`);
    const row = { ...base, sha256: read.entry.sha256, status: extracted.status, text: extracted.text, truncated: extracted.truncated };
    await saveContent(kysely, db.dialect, row, extracted.status === 'ok' ? indexedWords(extracted.text) : '', EXTRACTOR_VERSION, now);
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

  return { extract, listing };
}

export type Search = ReturnType<typeof createSearch>;
