import { queueLock } from '../queues/locks';
import type { HttpDeps } from '../queues/http';
import type { SessionStore } from '../queues/session';
import type { CacheStore } from './bytes';
import { PinEngine } from './engine';
import { PINS_LOCK, type PinEvent } from './protocol';

/** The sync engine wired to the real network, caches and databases, in the worker or (without one) in the page. */
export function createPinEngine(http: HttpDeps, caches: CacheStore, notify: (event: PinEvent) => void, session?: SessionStore): PinEngine {
  return new PinEngine({ http, caches, notify, isOnline: () => navigator.onLine, withLock: queueLock(PINS_LOCK), session });
}
