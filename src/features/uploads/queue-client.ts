import { QueueClient } from '../../offline/queues/client';
import { createUploadEngine } from '../../offline/queues/uploads/create-engine';
import { uploadsDatabase } from '../../offline/queues/uploads/db';
import { uploadsProtocol } from '../../offline/queues/uploads/protocol';
import type { UploadCommand, UploadEvent } from '../../offline/queues/uploads/protocol';
import type { ConflictChoice, UploadBlob, UploadItem } from '../../offline/queues/uploads/types';

// The page's view of the upload queue: the signed-in user's items, live from
// the worker's broadcasts over a first read of IndexedDB, through the one
// queue client (src/offline/queues/client.ts).

export class UploadQueueClient {
  private readonly queue = new QueueClient<UploadCommand, UploadEvent, UploadItem>({
    protocol: uploadsProtocol,
    load: (userId) => uploadsDatabase().items.where('userId').equals(userId).toArray(),
    changes: (event) => (event.type === 'removed' ? { items: [], removed: event.ids } : { items: [event.item], removed: [] }),
    createPageEngine: (http, notify) => createUploadEngine(http, notify),
  });

  getItems = (): UploadItem[] => this.queue.getItems();
  subscribe = (listener: () => void): (() => void) => this.queue.subscribe(listener);

  /** Tells whoever shows server data that an upload landed (the hook refreshes its queries). */
  onCompleted = (listener: (item: UploadItem) => void): (() => void) =>
    this.queue.onItem((item, previous) => {
      if (item.status === 'completed' && previous && previous.status !== 'completed') listener(item);
    });

  /** Called by every hook; the first call per user loads the queue and nudges the runner. */
  connect(userId: string): Promise<void> {
    return this.queue.connect(userId);
  }

  /** New items go to IndexedDB first: from then on nothing can lose them. */
  async add(items: UploadItem[], blobs: UploadBlob[]): Promise<void> {
    const db = uploadsDatabase();
    await db.transaction('rw', db.items, db.blobs, async () => {
      await db.blobs.bulkAdd(blobs);
      await db.items.bulkAdd(items);
    });
    await this.queue.added(items.map((item) => ({ type: 'item', item })));
  }

  /**
   * Items that became this user's in IndexedDB by other means (shared files
   * claimed after sign-in): every page hears of them, and the queue is kicked
   * for this user (the worker's own idea of the user can be stale).
   */
  async adopted(userId: string, items: UploadItem[]): Promise<void> {
    await this.connect(userId);
    await this.queue.added(items.map((item) => ({ type: 'item', item })));
  }

  cancel = (id: string) => this.queue.send({ type: 'uploads:cancel', id });
  retry = (id: string) => this.queue.send({ type: 'uploads:retry', id });
  resolve = (id: string, choice: ConflictChoice) => this.queue.send({ type: 'uploads:resolve', id, choice });
  clearCompleted = () => {
    const userId = this.queue.user();
    return userId ? this.queue.send({ type: 'uploads:clear', userId }) : Promise.resolve();
  };
}

export const uploadQueue = new UploadQueueClient();
