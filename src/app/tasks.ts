// The app's start is cut into tasks: a phone's slowed CPU runs each step for tens of ms, and one task
// holding them all kept taps and paints waiting (Lighthouse's blocking time counts each task's excess
// over 50 ms, so two tasks of 40 ms cost nothing where one of 80 ms costs 30).

interface Scheduler {
  yield?: () => Promise<void>;
}

/** Resolves in a later task, once the browser has had the main thread (input, a frame). */
export function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: Scheduler }).scheduler;
  // scheduler.yield() resumes ahead of other queued tasks (Chromium 129+): the start is cut, not delayed.
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Resolves when the browser is idle (or after `timeout` ms at the latest): for what no screen waits for. */
export function whenIdle(timeout = 2000): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout });
    else setTimeout(resolve, 0);
  });
}
