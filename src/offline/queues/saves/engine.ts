import { QueueEngine, type Conclusion, type Outcome } from '../engine';
import { MemorySession, type SessionStore } from '../session';
import { userDatabase } from '../../user-db';
import type { HttpDeps } from '../http';
import type { SavesDatabase } from './db';
import type { SaveCommand, SaveEvent } from './protocol';
import { pickNextSave } from './rules';
import { SaveNetworkError, SaveRefused, sendSave, type SaveResult } from './transport';
import type { SaveItem } from './types';

export interface SaveEngineDeps {
  db: SavesDatabase;
  http: HttpDeps;
  notify: (event: SaveEvent) => void;
  isOnline: () => boolean;
  withLock?: (run: () => Promise<void>) => Promise<void>;
  session?: SessionStore;
  now?: () => number;
}

const SAVE_TIMEOUT = 60_000;

/**
 * The document-save queue on the generic queue engine, with the upload
 * queue's persistence and retry rules: offline, saves wait (parked until the
 * next trigger); in order, one at a time, each with its base version. A save
 * that lands moves the document's later saves and its draft onto the new
 * version; a conflict becomes a copy beside the original, and the draft it
 * held is settled.
 */
export class SaveEngine {
  private readonly queue: QueueEngine<SaveItem, SaveResult>;

  constructor(private readonly deps: SaveEngineDeps) {
    const session = deps.session ?? new MemorySession();
    this.queue = new QueueEngine<SaveItem, SaveResult>({
      table: deps.db.items,
      session,
      isOnline: deps.isOnline,
      withLock: deps.withLock,
      now: deps.now,
      timeoutMs: SAVE_TIMEOUT,
      timeoutError: () => new SaveNetworkError(),
      notify: (item) => deps.notify({ type: 'save', item }),
      pick: pickNextSave,
      startChanges: { errorMessage: null },
      attempt: (item) => sendSave(deps.http, item, () => this.newest(item)),
      conclude: (item, outcome) => this.conclude(item, outcome),
    });
    this.setUser = (userId) => session.setUser(userId);
  }

  readonly setUser: (userId: string | null) => Promise<void>;

  run(): Promise<void> {
    return this.queue.run();
  }

  /** One command from a page: the only one, a kick, works through the queue. */
  apply(_command: SaveCommand): Promise<void> {
    return this.run();
  }

  hasWaiting(): Promise<boolean> {
    return this.queue.hasWaiting();
  }

  /** The same document's newest queued content (a later save replaces an earlier one's content in a copy). */
  private async newest(item: SaveItem): Promise<SaveItem> {
    const later = await this.later(item);
    return later.at(-1) ?? item;
  }

  private async later(item: SaveItem): Promise<SaveItem[]> {
    const all = await this.deps.db.items.where('entryId').equals(item.entryId).toArray();
    return all.filter((other) => other.id !== item.id && other.userId === item.userId && other.status === 'pending').sort((a, b) => a.createdAt - b.createdAt);
  }

  private async conclude(item: SaveItem, outcome: Outcome<SaveResult>): Promise<Conclusion<SaveItem>> {
    if (!outcome.ok) {
      if (outcome.error instanceof SaveRefused) return { changes: { status: 'failed', errorMessage: outcome.error.message } };
      return { changes: { status: 'pending', waitingForNetwork: true }, park: true };
    }
    const result = outcome.result;
    const user = userDatabase(item.userId);
    if (result.kind === 'saved') {
      // Later saves of this document were edited on top of this one: they now build on its new version.
      for (const later of await this.later(item)) {
        if (later.baseVersion === item.baseVersion) await this.queue.save(later.id, { baseVersion: result.version });
      }
      await user.transaction('rw', user.drafts, user.documents, async () => {
        const previous = await user.documents.get(item.entryId);
        await user.documents.put({
          entryId: item.entryId,
          name: previous?.name ?? item.name,
          content: item.content,
          version: result.version,
          fetchedAt: Date.now(),
        });
        const draft = await user.drafts.get(item.entryId);
        if (!draft || draft.baseEtag !== item.baseVersion) return;
        if (draft.updatedAt <= item.draftUpdatedAt) await user.drafts.delete(item.entryId);
        else await user.drafts.update(item.entryId, { baseEtag: result.version });
      });
      return { changes: { status: 'completed', outcome: 'saved', version: result.version } };
    }
    // The copy holds the newest queued content: the later saves of this lineage are settled by it.
    const later = await this.later(item);
    const copied = later.at(-1) ?? item;
    for (const other of later) await this.queue.save(other.id, { status: 'completed', outcome: 'conflict', copyName: result.copyName });
    await user.transaction('rw', user.drafts, user.documents, async () => {
      // The device's copy of the server version is stale; the next open reads the server's.
      await user.documents.delete(item.entryId);
      const draft = await user.drafts.get(item.entryId);
      if (draft && draft.baseEtag === item.baseVersion && draft.updatedAt <= copied.draftUpdatedAt) await user.drafts.delete(item.entryId);
    });
    return { changes: { status: 'completed', outcome: 'conflict', copyName: result.copyName } };
  }
}

/**
 * Queues a save. One pending save per document: a newer one replaces the
 * waiting one's content (a save already on its way is left alone).
 */
export async function enqueueSave(db: SavesDatabase, item: SaveItem): Promise<SaveItem> {
  return db.transaction('rw', db.items, async () => {
    const mine = (await db.items.where('entryId').equals(item.entryId).toArray()).filter((other) => other.userId === item.userId);
    // A page that has not heard yet that its last save landed still names the old version: follow the
    // chain of this device's landed saves, so its own earlier save never counts as someone else's change.
    let baseVersion = item.baseVersion;
    for (let hops = 0; hops < 100; hops += 1) {
      const landed = mine.find((other) => other.outcome === 'saved' && other.baseVersion === baseVersion && other.version);
      if (!landed) break;
      baseVersion = landed.version!;
    }
    // Settled saves other than the newest landed one are history the queue no longer needs.
    const settled = mine.filter((other) => other.status === 'completed').sort((a, b) => b.updatedAt - a.updatedAt);
    await db.items.bulkDelete(settled.slice(1).map((other) => other.id));
    const waiting = mine.find((other) => other.status === 'pending');
    const queued = waiting
      ? { ...waiting, content: item.content, baseVersion, draftUpdatedAt: item.draftUpdatedAt, name: item.name, updatedAt: item.updatedAt }
      : { ...item, baseVersion };
    await db.items.put(queued);
    return queued;
  });
}
