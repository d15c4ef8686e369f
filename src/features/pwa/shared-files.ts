import { uploadsDatabase } from '../../offline/queues/uploads/db';
import { claimSharedFiles, SHARED_PARAM } from '../../offline/queues/uploads/shared-files';
import { safeRedirectTarget } from '../../app/landing';
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

/** How many shared files wait for a sign-in, read from the sign-in page's `redirect` (/drive?shared=3). */
export function sharedCountOf(redirect: string | null): number {
  const target = safeRedirectTarget(redirect);
  if (!target) return 0;
  const count = Number(new URL(target, 'http://app.invalid').searchParams.get(SHARED_PARAM));
  return Number.isInteger(count) && count > 0 ? count : 0;
}
