import { QueueEngine, type Conclusion, type Outcome } from '../engine';
import { MemorySession, type SessionStore } from '../session';
import type { UploadsDatabase } from './db';
import type { UploadCommand, UploadEvent } from './protocol';
import { INACTIVITY_TIMEOUT, percentage, pickNextToStart, TIMED_OUT } from './rules';
import { UploadFailure } from './transport';
import type { Transport } from './transport';
import type { ConflictChoice, FileEntry, UploadItem, UploadMethod } from './types';

export interface EngineDeps {
  db: UploadsDatabase;
  transports: Record<UploadMethod, Transport>;
  /** Every change, for the pages (BroadcastChannel 'uploads'). */
  notify: (event: UploadEvent) => void;
  isOnline: () => boolean;
  /** Runs the queue exclusively across the worker and pages (Web Locks where available). */
  withLock?: (run: () => Promise<void>) => Promise<void>;
  /** Who is signed in: the worker's shared session; a page-local one when absent. */
  session?: SessionStore;
  timeoutMs?: number;
  now?: () => number;
}

/**
 * The upload queue (spec §4 Upload status) on the generic queue engine: its
 * items carry their bytes in a table of their own, travel by plain multipart
 * or tus (resuming from the stored tus URL), and run up to the concurrency
 * rule. Failures keep their bytes, message and tus URL.
 */
export class UploadEngine {
  private readonly queue: QueueEngine<UploadItem, FileEntry>;
  private readonly session: SessionStore;

  constructor(private readonly deps: EngineDeps) {
    this.session = deps.session ?? new MemorySession();
    this.queue = new QueueEngine<UploadItem, FileEntry>({
      table: deps.db.items,
      session: this.session,
      isOnline: deps.isOnline,
      withLock: deps.withLock,
      now: deps.now,
      timeoutMs: deps.timeoutMs ?? INACTIVITY_TIMEOUT,
      timeoutError: () => new UploadFailure('timeout', 0, TIMED_OUT),
      notify: (item) => deps.notify({ type: 'item', item }),
      pick: pickNextToStart,
      prepare: (item) => this.prepare(item),
      startChanges: { errorMessage: null, errorValues: null },
      attempt: (item, progress) => this.attempt(item, progress),
      conclude: (item, outcome) => this.conclude(item, outcome),
    });
  }

  private get db(): UploadsDatabase {
    return this.deps.db;
  }

  /** The signed-in user, as the last page said (the worker's session remembers it for start-ups without a page). */
  setUser(userId: string | null): Promise<void> {
    return this.session.setUser(userId);
  }

  /**
   * One command from a page. The returned promise settles when the command's
   * work is done (for a kick, when the queue has run dry), so the worker can
   * hold its event open that long; the page's own runner need not wait.
   */
  async apply(command: UploadCommand): Promise<void> {
    switch (command.type) {
      case 'uploads:kick':
        return this.run();
      case 'uploads:cancel':
        return this.cancel(command.id);
      case 'uploads:retry':
        return this.retry(command.id);
      case 'uploads:clear':
        return this.clear(command.userId);
      case 'uploads:resolve':
        return this.resolve(command.id, command.choice);
    }
  }

  /** Works through the queue; resolves when nothing more can start now. */
  run(): Promise<void> {
    return this.queue.run();
  }

  hasWaiting(): Promise<boolean> {
    return this.queue.hasWaiting();
  }

  /** Bytes read for the attempt about to start (prepare → attempt). */
  private readonly blobs = new Map<string, Blob>();

  /** Without its bytes an item can never be sent: it fails for good. */
  private async prepare(item: UploadItem): Promise<Conclusion<UploadItem> | null> {
    const stored = await this.db.blobs.get(item.id);
    if (!stored) return { changes: { status: 'failed', retryable: false } };
    this.blobs.set(item.id, stored.blob);
    return null;
  }

  private attempt(item: UploadItem, progress: (changes: Partial<UploadItem>) => void) {
    const blob = this.blobs.get(item.id)!;
    this.blobs.delete(item.id);
    return this.deps.transports[item.method](item, {
      blob,
      onProgress: (bytesUploaded) => progress({ bytesUploaded, percentage: percentage(bytesUploaded, item.size) }),
      onUploadUrl: (tusUrl) => progress({ tusUrl }),
      onS3Upload: (s3Upload) => progress({ s3Upload }),
    });
  }

  private async conclude(item: UploadItem, outcome: Outcome<FileEntry>): Promise<Conclusion<UploadItem>> {
    if (outcome.ok) {
      // The bytes are on the server now; their copy on the device goes.
      await this.db.blobs.delete(item.id);
      return { changes: { status: 'completed', entry: outcome.result, tusUrl: null, s3Upload: null, bytesUploaded: item.size, percentage: 100 } };
    }
    const failure = outcome.error instanceof UploadFailure ? outcome.error : new UploadFailure('network');
    if (failure.kind === 'aborted') return { changes: { status: 'aborted' } };
    // The name is taken and the item asked first: the person chooses (Replace or Keep both), whatever the network.
    if (failure.nameTaken) return { changes: { status: 'failed', nameTaken: true, errorMessage: failure.userMessage, errorValues: null, retryable: true } };
    // No answer at all, or silence while the device says it is offline: wait
    // for the network instead of failing (DESIGN §6). It starts again on the
    // next trigger: `online`, Background Sync, a page's message, start-up.
    // A tus offset conflict (409) or a locked upload (423) means "ask the server where we are":
    // tus-js-client does that itself when online, and gives up while the device is offline.
    const resyncWhenOnline = failure.kind === 'http' && (failure.status === 409 || failure.status === 423);
    if (failure.kind === 'network' || ((failure.kind === 'timeout' || resyncWhenOnline) && !this.deps.isOnline())) {
      return { changes: { status: 'pending', waitingForNetwork: true }, park: true };
    }
    // A refusal (403) or a folder that is gone (404) answers the same however often it is asked: no Retry.
    const refused = failure.kind === 'http' && (failure.status === 403 || failure.status === 404);
    return { changes: { status: 'failed', errorMessage: failure.userMessage, errorValues: null, retryable: !refused } };
  }

  /** User abort: a running attempt stops; the item stays listed as aborted. */
  async cancel(id: string): Promise<void> {
    const item = await this.db.items.get(id);
    if (!item || item.status === 'completed' || item.status === 'aborted') return;
    this.queue.stop(id);
    await this.queue.save(id, { status: 'aborted', waitingForNetwork: false });
    void this.run();
  }

  /** A failed or aborted item goes back to the queue, resuming from its tus URL. */
  async retry(id: string): Promise<void> {
    const item = await this.db.items.get(id);
    if (!item?.retryable || (item.status !== 'failed' && item.status !== 'aborted')) return;
    await this.queue.save(id, { status: 'pending', errorMessage: null, errorValues: null, waitingForNetwork: false });
    void this.run();
  }

  /**
   * Replace or Keep both for an item refused for its name: it starts again
   * with that answer. A new upload, not a resumed one: the earlier attempt
   * asked, and a tus or S3 upload keeps what it was created with.
   */
  async resolve(id: string, choice: ConflictChoice): Promise<void> {
    const item = await this.db.items.get(id);
    if (!item?.nameTaken || item.status !== 'failed') return;
    await this.queue.save(id, {
      status: 'pending',
      onConflict: choice,
      nameTaken: false,
      tusUrl: null,
      s3Upload: null,
      bytesUploaded: 0,
      percentage: 0,
      errorMessage: null,
      errorValues: null,
      waitingForNetwork: false,
    });
    void this.run();
  }

  /** Drops completed and aborted items of one user, with their bytes. */
  async clear(userId: string): Promise<void> {
    const items = await this.db.items.where('userId').equals(userId).toArray();
    const ids = items.filter((i) => i.status === 'completed' || i.status === 'aborted').map((i) => i.id);
    if (!ids.length) return;
    await this.db.transaction('rw', this.db.items, this.db.blobs, async () => {
      await this.db.items.bulkDelete(ids);
      await this.db.blobs.bulkDelete(ids);
    });
    this.deps.notify({ type: 'removed', ids });
  }
}
