import { queueLock } from '../locks';
import type { SessionStore } from '../session';
import { uploadsDatabase } from './db';
import { UploadEngine } from './engine';
import type { UploadEvent } from './protocol';
import { plainTransport } from './plain-transport';
import type { HttpDeps } from './transport';
import { s3MultipartTransport, s3SimpleTransport } from './s3-transport';
import { tusTransport } from './tus-transport';

export const UPLOAD_LOCK = 'drive-upload-queue';

/** The engine wired to the real network and database, in the worker or (without one) in the page. */
export function createUploadEngine(http: HttpDeps, notify: (event: UploadEvent) => void, session?: SessionStore): UploadEngine {
  return new UploadEngine({
    db: uploadsDatabase(),
    transports: { plain: plainTransport(http), tus: tusTransport(http), s3Simple: s3SimpleTransport(http), s3Multipart: s3MultipartTransport(http) },
    notify,
    isOnline: () => navigator.onLine,
    // The lock's name predates the queue host: an old worker and its update still exclude each other.
    withLock: queueLock(UPLOAD_LOCK),
    session,
  });
}
