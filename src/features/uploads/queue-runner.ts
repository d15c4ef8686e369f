import { readCookie } from '../../api/cookies';
import type { SessionMessage } from '../../offline/queues/protocol';
import { createUploadEngine } from '../../offline/queues/uploads/create-engine';
import type { UploadEngine } from '../../offline/queues/uploads/engine';
import type { UploadCommand, UploadEvent } from '../../offline/queues/uploads/protocol';
import { SYNC_TAG } from '../../offline/queues/uploads/protocol';

// Where the queue runs for this page: the service worker's queue host when
// there is one (production), else the page itself (dev server, browsers
// without workers), through the same engine from src/offline/queues. A Web
// Lock keeps two runners from overlapping.
export interface QueueRunner {
  /** Who is signed in (and the XSRF token), for the worker's session; then the queue runs. */
  session: (message: SessionMessage) => Promise<void>;
  send: (command: UploadCommand) => Promise<void>;
  /** Asks for Background Sync, so the browser wakes the worker when the network returns. */
  requestSync: () => Promise<void>;
  inWorker: boolean;
}

const READY_TIMEOUT = 5000;

interface SyncRegistration extends ServiceWorkerRegistration {
  sync?: { register: (tag: string) => Promise<void> };
}

export async function connectRunner(onLocalEvent: (event: UploadEvent) => void, channel: BroadcastChannel | null): Promise<QueueRunner> {
  const registration = await readyRegistration();
  const worker = registration?.active;
  if (registration && worker) {
    return {
      inWorker: true,
      session: (message) => Promise.resolve(worker.postMessage(message)),
      send: (command) => Promise.resolve(worker.postMessage(command)),
      requestSync: async () => {
        try {
          await (registration as SyncRegistration).sync?.register(SYNC_TAG);
        } catch {
          // Not allowed here (permission, private mode): `online` and page kicks still run it.
        }
      },
    };
  }
  const engine = createPageEngine(onLocalEvent, channel);
  return {
    inWorker: false,
    session: async (message) => {
      await engine.setUser(message.userId);
      void engine.run().catch(() => undefined);
    },
    send: async (command) => {
      // The page answers as soon as the command is taken; a kick's queue run goes on by itself.
      const done = engine.apply(command);
      if (command.type !== 'uploads:kick') await done;
      else void done.catch(() => undefined);
    },
    requestSync: () => Promise.resolve(),
  };
}

async function readyRegistration(): Promise<ServiceWorkerRegistration | null> {
  if (!import.meta.env.PROD || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return null;
  const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), READY_TIMEOUT));
  return Promise.race([navigator.serviceWorker.ready, timeout]);
}

function createPageEngine(onLocalEvent: (event: UploadEvent) => void, channel: BroadcastChannel | null): UploadEngine {
  const engine = createUploadEngine(
    {
      fetch: (input, init) => window.fetch(input, init),
      origin: window.location.origin,
      getXsrfToken: () => Promise.resolve(readCookie('XSRF-TOKEN')),
    },
    (event) => {
      // A channel does not deliver to itself: this page hears it directly.
      onLocalEvent(event);
      channel?.postMessage(event);
    },
  );
  window.addEventListener('online', () => void engine.run());
  return engine;
}
