const LOCK_NAME = 'drive-upload-queue';

/**
 * One runner at a time per browser: a worker being replaced by its update, or
 * a page running the queue itself, waits instead of sending the same bytes.
 */
export async function withQueueLock(run: () => Promise<void>): Promise<void> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (!locks) return run();
  await locks.request(LOCK_NAME, run);
}
