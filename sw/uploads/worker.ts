/// <reference lib="webworker" />
import { isUploadCommand, SYNC_TAG, UPLOADS_CHANNEL } from '../../src/features/uploads/queue/protocol';
import { createUploadEngine } from './create-engine';


// Background Sync is not in TypeScript's worker lib (it is Chromium-only).
interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
}

// A browser stops an event that runs for minutes, and stops an idle worker
// after ~30 s. Each event therefore holds the worker for a bounded time; open
// pages send a message every 20 s while uploads run, so the worker lives as
// long as they need it. Whatever is cut short resumes from its tus URL.
const MESSAGE_HOLD = 25_000;
const SYNC_HOLD = 4 * 60_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function installUploadQueue(scope: ServiceWorkerGlobalScope): void {
  const channel = new BroadcastChannel(UPLOADS_CHANNEL);
  let pageToken: string | null = null;
  const engine = createUploadEngine(
    {
      fetch: (input, init) => scope.fetch(input, init),
      origin: scope.location.origin,
      getXsrfToken: async () => (await readCookie(scope, 'XSRF-TOKEN')) ?? pageToken,
    },
    (event) => channel.postMessage(event),
  );

  scope.addEventListener('message', (event) => {
    if (!isUploadCommand(event.data)) return;
    const command = event.data;
    if (command.type === 'uploads:kick') pageToken = command.xsrfToken ?? pageToken;
    event.waitUntil(Promise.race([engine.apply(command), sleep(MESSAGE_HOLD)]));
  });

  scope.addEventListener('sync', (event) => {
    const sync = event as SyncEvent;
    if (sync.tag !== SYNC_TAG) return;
    // Rejecting tells the browser to try this sync again later.
    sync.waitUntil(
      Promise.race([engine.run(), sleep(SYNC_HOLD)]).then(async () => {
        if (await engine.hasWaiting()) throw new Error('Uploads still waiting');
      }),
    );
  });

  // Worker lib has no typed 'online' event on the global scope, but Chromium fires it.
  scope.addEventListener('online', () => void engine.run());

  // Start-up (after a browser restart, an update or an idle stop): carry on.
  void engine.run();
}

/** The worker cannot read document.cookie; the Cookie Store API can, where it exists. */
async function readCookie(scope: ServiceWorkerGlobalScope, name: string): Promise<string | null> {
  try {
    if (!('cookieStore' in scope)) return null;
    return (await scope.cookieStore.get(name))?.value ?? null;
  } catch {
    return null;
  }
}
