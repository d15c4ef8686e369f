import { readCookie } from '../../api/cookies';
import type { SessionMessage } from '../../offline/queues/protocol';
import { uploadsDatabase } from '../../offline/queues/uploads/db';
import { UPLOADS_CHANNEL } from '../../offline/queues/uploads/protocol';
import type { UploadCommand, UploadEvent } from '../../offline/queues/uploads/protocol';
import { claimSharedFiles, SHARED_PARAM } from '../../offline/queues/uploads/shared-files';
import { safeRedirectTarget } from '../../app/landing';

/**
 * The signed-in user takes the files shared into the app (sw/share-target.ts
 * left them unclaimed); every open page hears of them on the queue's channel,
 * and the worker is told who is signed in and to run the queue.
 */
export async function claimSharedUploads(userId: string): Promise<number> {
  const claimed = await claimSharedFiles(uploadsDatabase(), userId);
  if (!claimed.length) return 0;
  if (typeof BroadcastChannel !== 'undefined') {
    const channel = new BroadcastChannel(UPLOADS_CHANNEL);
    for (const item of claimed) channel.postMessage({ type: 'item', item } satisfies UploadEvent);
    channel.close();
  }
  const worker = navigator.serviceWorker?.controller;
  worker?.postMessage({ type: 'session', userId, xsrfToken: readCookie('XSRF-TOKEN') } satisfies SessionMessage);
  worker?.postMessage({ type: 'uploads:kick' } satisfies UploadCommand);
  return claimed.length;
}

/** How many shared files wait for a sign-in, read from the sign-in page's `redirect` (/drive?shared=3). */
export function sharedCountOf(redirect: string | null): number {
  const target = safeRedirectTarget(redirect);
  if (!target) return 0;
  const count = Number(new URL(target, 'http://app.invalid').searchParams.get(SHARED_PARAM));
  return Number.isInteger(count) && count > 0 ? count : 0;
}
