/**
 * One runner per queue at a time per browser: a worker being replaced by its
 * update, or a page running the queue itself, waits instead of sending the
 * same bytes twice. Each queue has its own lock, so a long upload never holds
 * up a document save.
 */
export function queueLock(name: string): (run: () => Promise<void>) => Promise<void> {
  return async (run) => {
    const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
    if (!locks) return run();
    await locks.request(name, run);
  };
}
