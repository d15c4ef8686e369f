import Dexie from 'dexie';
import type { Table } from 'dexie';
import { describe, expect, it } from 'vitest';
import { QueueEngine, type QueueItem } from '../../../src/offline/queues/engine';
import type { QueueCommand } from '../../../src/offline/queues/protocol';
import { MemorySession, type SessionStore } from '../../../src/offline/queues/session';
import { QueueHost, type HostedQueue, type HostScope } from '../../../sw/queues/host';
import { flush } from '../uploads/helpers';

/**
 * The worker's queue host with a second queue beside uploads: a document-save
 * queue written here in a few dozen lines on the generic engine, to prove
 * the seam a real one will use — coalescing (one pending save per document,
 * the newest body wins), a conflict outcome, and one ending per attempt.
 */
interface SaveItem extends QueueItem {
  documentId: string;
  body: string;
  baseEtag: string;
  conflict: boolean;
}

class SavesDatabase extends Dexie {
  items!: Table<SaveItem, string>;
  constructor() {
    super(`saves-test-${crypto.randomUUID()}`);
    this.version(1).stores({ items: '&id, userId, status' });
  }
}

function saveQueue(session: SessionStore, send: (item: SaveItem) => Promise<'saved' | 'conflict'>) {
  const db = new SavesDatabase();
  const concluded: string[] = [];
  const engine = new QueueEngine<SaveItem, 'saved' | 'conflict'>({
    table: db.items,
    session,
    isOnline: () => true,
    timeoutMs: 10_000,
    timeoutError: () => new Error('timed out'),
    notify: () => undefined,
    pick: (waiting, userId) => waiting.filter((item) => item.userId === userId && item.status === 'pending').slice(0, 1),
    attempt: (item) => ({ done: send(item), abort: () => undefined }),
    conclude: (item, outcome) => {
      concluded.push(item.id);
      if (!outcome.ok) return { changes: { status: 'pending', waitingForNetwork: true }, park: true };
      // A stale base (the server's 412) keeps the draft as a conflict copy instead of overwriting.
      return { changes: { status: outcome.result === 'conflict' ? 'failed' : 'completed', conflict: outcome.result === 'conflict' } };
    },
  });
  /** Coalescing: one pending save per document; a newer draft replaces the queued body. */
  const enqueue = (userId: string, documentId: string, body: string) =>
    db.items.put({
      id: `save-${documentId}`,
      userId,
      documentId,
      body,
      baseEtag: 'e1',
      conflict: false,
      status: 'pending',
      waitingForNetwork: false,
      updatedAt: Date.now(),
    });
  const hosted: HostedQueue = {
    name: 'saves',
    syncTag: 'save-queue',
    isCommand: (data): data is QueueCommand => (data as { type?: unknown }).type === 'saves:kick',
    apply: async (command) => {
      if (command.type === 'saves:kick') await engine.run();
    },
    run: () => engine.run(),
    hasWaiting: () => engine.hasWaiting(),
  };
  return { db, engine, enqueue, hosted, concluded };
}

class FakeWorker extends EventTarget implements HostScope {
  readonly holds: Promise<unknown>[] = [];
  private dispatch(type: string, fields: Record<string, unknown>) {
    const event = Object.assign(new Event(type), fields, { waitUntil: (p: Promise<unknown>) => this.holds.push(p) });
    this.dispatchEvent(event);
  }
  message(data: unknown) {
    this.dispatch('message', { data });
  }
  sync(tag: string) {
    this.dispatch('sync', { tag });
  }
}

function hostWith(...queues: HostedQueue[]) {
  const scope = new FakeWorker();
  const session = new MemorySession();
  const host = new QueueHost(scope, session);
  for (const queue of queues) host.register(queue);
  return { scope, session, host };
}

describe('the queue host', () => {
  it('routes each command to its queue by name, and sessions and `online` to every queue', async () => {
    const calls: string[] = [];
    // Each queue's own guard decides which of its messages are commands.
    const fake = (name: string): HostedQueue => ({
      name,
      syncTag: `${name}-tag`,
      isCommand: (data): data is QueueCommand => [`${name}:kick`, `${name}:cancel`].includes(String((data as { type?: unknown }).type)),
      apply: async (command) => void calls.push(`${name} ${command.type}`),
      run: async () => void calls.push(`${name} run`),
      hasWaiting: async () => false,
    });
    const { scope, host, session } = hostWith(fake('uploads'), fake('saves'));
    host.start();
    await flush();
    expect(calls.sort()).toEqual(['saves run', 'uploads run']);

    calls.length = 0;
    scope.message({ type: 'saves:kick' });
    scope.message({ type: 'uploads:cancel', id: 'x' });
    scope.message({ type: 'uploads:explode' });
    scope.message({ type: 'SKIP_WAITING' });
    await flush();
    expect(calls).toEqual(['saves saves:kick', 'uploads uploads:cancel']);

    calls.length = 0;
    scope.message({ type: 'session', userId: '7', xsrfToken: 'tok' });
    await flush();
    expect(await session.userId()).toBe('7');
    expect(await host.session.xsrfToken()).toBe('tok');
    expect(calls.sort()).toEqual(['saves run', 'uploads run']);

    calls.length = 0;
    scope.dispatchEvent(new Event('online'));
    await flush();
    expect(calls.sort()).toEqual(['saves run', 'uploads run']);
    expect(() => host.register(fake('saves'))).toThrow(/twice/);
  });

  it('a sync event runs its own queue and asks to be retried while work still waits', async () => {
    let waiting = true;
    const runs: string[] = [];
    const queue: HostedQueue = {
      name: 'saves',
      syncTag: 'save-queue',
      isCommand: (data): data is QueueCommand => typeof data === 'object',
      apply: async () => undefined,
      run: async () => void runs.push('run'),
      hasWaiting: async () => waiting,
    };
    const { scope, host } = hostWith(queue);
    host.start();
    scope.sync('some-other-tag');
    scope.sync('save-queue');
    await expect(scope.holds.at(-1)).rejects.toThrow(/still waiting/);
    waiting = false;
    scope.sync('save-queue');
    await expect(scope.holds.at(-1)).resolves.toBeUndefined();
    expect(runs.length).toBeGreaterThanOrEqual(3);
  });

  it('a second queue joins in a few dozen lines: coalesced saves, a conflict outcome, one ending per attempt', async () => {
    const sent: string[] = [];
    const scope = new FakeWorker();
    const host = new QueueHost(scope, new MemorySession());
    // The queue reads the host's session: who is signed in is said once, for every queue.
    const saves = saveQueue(host.session, async (item) => {
      sent.push(item.body);
      return item.body.includes('stale') ? 'conflict' : 'saved';
    });
    host.register(saves.hosted);
    // Edits made offline, before anything could be sent.
    await saves.enqueue('1', 'doc', 'first draft');
    await saves.enqueue('1', 'doc', 'second draft');
    await saves.enqueue('1', 'other', 'stale base');
    await saves.enqueue('2', 'theirs', 'not for this session');
    host.start();
    scope.message({ type: 'session', userId: '1', xsrfToken: null });
    scope.message({ type: 'saves:kick' });
    await flush();
    await Promise.allSettled(scope.holds);
    await flush();

    expect(sent.sort()).toEqual(['second draft', 'stale base']);
    expect(saves.concluded.sort()).toEqual(['save-doc', 'save-other']);
    expect(await saves.db.items.get('save-doc')).toMatchObject({ status: 'completed', conflict: false });
    expect(await saves.db.items.get('save-other')).toMatchObject({ status: 'failed', conflict: true });
    expect((await saves.db.items.get('save-theirs'))?.status).toBe('pending');
    expect(await saves.engine.hasWaiting()).toBe(false);
  });

  it('an attempt that times out and then answers ends once, and waits for the network', async () => {
    let answer!: (value: 'saved') => void;
    const session = new MemorySession();
    await session.setUser('1');
    const db = new SavesDatabase();
    const endings: string[] = [];
    const engine = new QueueEngine<SaveItem, 'saved'>({
      table: db.items,
      session,
      isOnline: () => true,
      timeoutMs: 5,
      timeoutError: () => new Error('timed out'),
      notify: () => undefined,
      pick: (waiting) => waiting.filter((i) => i.status === 'pending'),
      attempt: () => ({ done: new Promise((resolve) => (answer = resolve)), abort: () => undefined }),
      conclude: (_item, outcome) => {
        endings.push(outcome.ok ? 'ok' : 'error');
        return outcome.ok ? { changes: { status: 'completed' } } : { changes: { status: 'pending', waitingForNetwork: true }, park: true };
      },
    });
    await db.items.put({
      id: 's',
      userId: '1',
      documentId: 'd',
      body: 'b',
      baseEtag: 'e',
      conflict: false,
      status: 'pending',
      waitingForNetwork: false,
      updatedAt: 0,
    });
    await engine.run();
    answer('saved');
    await flush();
    expect(endings).toEqual(['error']);
    expect(await db.items.get('s')).toMatchObject({ status: 'pending', waitingForNetwork: true });
  });
});
