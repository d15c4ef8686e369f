import { uploadsDatabase } from '../../offline/queues/uploads/db';
import { claimSharedFiles } from '../../offline/queues/uploads/shared-files';
import { uploadQueue } from '../uploads/queue-client';

/**
 * The signed-in user takes the files shared into the app (sw/share-target.ts
 * left them unclaimed); through the upload queue's client every open page
 * hears of them, and the worker is told who is signed in and to run the queue.
 */
export async function claimSharedUploads(userId: string): Promise<number> {
  const claimed = await claimSharedFiles(uploadsDatabase(), userId);
  if (!claimed.length) return 0;
  await uploadQueue.adopted(userId, claimed);
  return claimed.length;
}
