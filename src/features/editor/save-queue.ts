import { QueueClient } from '../../offline/queues/client';
import { createSaveEngine } from '../../offline/queues/saves/create-engine';
import { savesDatabase } from '../../offline/queues/saves/db';
import { enqueueSave } from '../../offline/queues/saves/engine';
import { savesProtocol, type SaveCommand, type SaveEvent } from '../../offline/queues/saves/protocol';
import type { SaveItem } from '../../offline/queues/saves/types';

// The page's side of the document-save queue, through the one queue client
// (src/offline/queues/client.ts): it writes items to IndexedDB (from then on
// nothing loses them), nudges whoever runs the queue, and hears every change
// on the queue's channel.

export class SaveQueueClient {
  private readonly queue = new QueueClient<SaveCommand, SaveEvent, SaveItem>({
    protocol: savesProtocol,
    load: (userId) => savesDatabase().items.where('userId').equals(userId).toArray(),
    changes: (event) => ({ items: [event.item], removed: [] }),
    createPageEngine: (http, notify) => createSaveEngine(http, notify),
  });

  /** Hears every save of the user from now on; the first call loads the user's queue. */
  watch(userId: string, listener: (item: SaveItem) => void): () => void {
    void this.queue.connect(userId);
    return this.queue.onItem((item) => listener(item));
  }

  /** The newest save of a document on this device, if any. */
  async latest(userId: string, entryId: string): Promise<SaveItem | undefined> {
    await this.queue.connect(userId);
    return this.queue
      .getItems()
      .filter((item) => item.entryId === entryId)
      .sort((a, b) => a.createdAt - b.createdAt || a.updatedAt - b.updatedAt)
      .at(-1);
  }

  async enqueue(item: SaveItem): Promise<SaveItem> {
    await this.queue.connect(item.userId);
    const stored = await enqueueSave(savesDatabase(), item);
    await this.queue.added([{ type: 'save', item: stored }]);
    return stored;
  }
}

export const saveQueue = new SaveQueueClient();
