import { uploadsDatabase } from '../../src/features/uploads/queue/db';
import type { UploadEvent } from '../../src/features/uploads/queue/protocol';
import { UploadEngine } from './engine';
import { withQueueLock } from './locks';
import { plainTransport } from './plain-transport';
import type { HttpDeps } from './transport';
import { tusTransport } from './tus-transport';

/** The engine wired to the real network and database, in the worker or (without one) in the page. */
export function createUploadEngine(http: HttpDeps, notify: (event: UploadEvent) => void): UploadEngine {
  return new UploadEngine({
    db: uploadsDatabase(),
    transports: { plain: plainTransport(http), tus: tusTransport(http) },
    notify,
    isOnline: () => navigator.onLine,
    withLock: withQueueLock,
  });
}
