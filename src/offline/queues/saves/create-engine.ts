import { queueLock } from '../locks';
import type { SessionStore } from '../session';
import type { HttpDeps } from '../http';
import { savesDatabase } from './db';
import { SaveEngine } from './engine';
import { SAVES_LOCK, type SaveEvent } from './protocol';

/** The save engine wired to the real network and database, in the worker or (without one) in the page. */
export function createSaveEngine(http: HttpDeps, notify: (event: SaveEvent) => void, session?: SessionStore): SaveEngine {
  return new SaveEngine({ db: savesDatabase(), http, notify, isOnline: () => navigator.onLine, withLock: queueLock(SAVES_LOCK), session });
}
