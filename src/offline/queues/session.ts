import Dexie from 'dexie';
import type { Table } from 'dexie';

// Who the queues work for. The page says who is signed in (and the XSRF
// token, which a worker without the Cookie Store API cannot read); the worker
// keeps the user so that a start-up without any page (Background Sync, a
// browser restart) still sends only that user's items, and so that it can
// open that user's own database (notifications, drafts).

export interface SessionStore {
  userId(): Promise<string | null>;
  setUser(userId: string | null): Promise<void>;
}

/** For a queue that lives as long as its page (tests, the page's own runner). */
export class MemorySession implements SessionStore {
  private current: string | null = null;
  async userId() {
    return this.current;
  }
  async setUser(userId: string | null) {
    this.current = userId;
  }
}

export const SESSION_DB_NAME = 'drive-session';
const CURRENT = 'current';

interface SessionRecord {
  key: string;
  userId: string | null;
}

class SessionDatabase extends Dexie {
  session!: Table<SessionRecord, string>;

  constructor(name: string) {
    super(name);
    this.version(1).stores({ session: '&key' });
  }
}

/** The session every queue of a worker (or page) reads, remembered across start-ups. */
export class StoredSession implements SessionStore {
  private cached: string | null | undefined;
  private readonly db: SessionDatabase;

  constructor(name: string = SESSION_DB_NAME) {
    this.db = new SessionDatabase(name);
  }

  async userId(): Promise<string | null> {
    if (this.cached === undefined) this.cached = (await this.db.session.get(CURRENT))?.userId ?? null;
    return this.cached;
  }

  async setUser(userId: string | null): Promise<void> {
    if (userId === this.cached) return;
    this.cached = userId;
    await this.db.session.put({ key: CURRENT, userId });
  }
}

let shared: StoredSession | null = null;

export function sharedSession(): StoredSession {
  shared ??= new StoredSession();
  return shared;
}
