import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueueClient, type ClientItem, type PageEngine, type WorkerRegistration } from '../../../src/offline/queues/client';
import type { QueueProtocol } from '../../../src/offline/queues/protocol';
import { flush } from '../uploads/helpers';

// The one page-side queue client, over a small queue of its own: what every
// queue (uploads, saves, the next one) gets by declaring its protocol.

interface DemoItem extends ClientItem {
  label: string;
}
type DemoCommand = { type: 'demo:kick' } | { type: 'demo:drop'; id: string };
type DemoEvent = { type: 'demo-item'; item: DemoItem } | { type: 'demo-gone'; ids: string[] };

let channels = 0;
function demoProtocol(): QueueProtocol<DemoCommand, DemoEvent> {
  channels += 1;
  return {
    name: 'demo',
    syncTag: 'demo-sync',
    // A channel of its own per test: clients of earlier tests must not hear this one.
    channel: `demo-${channels}`,
    kick: { type: 'demo:kick' },
    isCommand: (data): data is DemoCommand => typeof data === 'object' && data !== null && String((data as { type?: unknown }).type).startsWith('demo:'),
    isEvent: (data): data is DemoEvent => ['demo-item', 'demo-gone'].includes(String((data as { type?: unknown }).type)),
  };
}

const item = (id: string, fields: Partial<DemoItem> = {}): DemoItem => ({
  id,
  userId: '1',
  status: 'pending',
  waitingForNetwork: false,
  updatedAt: 1,
  createdAt: 1,
  label: id,
  ...fields,
});

function clientWith(options: { stored?: DemoItem[]; worker?: boolean; engine?: PageEngine<DemoCommand>; readGate?: Promise<void> }) {
  const protocol = demoProtocol();
  const posted: unknown[] = [];
  const syncs: string[] = [];
  const registration: WorkerRegistration = {
    active: { postMessage: (message: unknown) => void posted.push(message) } as ServiceWorker,
    sync: { register: async (tag) => void syncs.push(tag) },
  };
  let notify: (event: DemoEvent) => void = () => undefined;
  const client = new QueueClient<DemoCommand, DemoEvent, DemoItem>({
    protocol,
    load: async (userId) => {
      const stored = (options.stored ?? []).filter((one) => one.userId === userId);
      await options.readGate;
      return stored;
    },
    changes: (event) => (event.type === 'demo-gone' ? { items: [], removed: event.ids } : { items: [event.item], removed: [] }),
    createPageEngine: (_http, report) => {
      notify = report;
      return options.engine!;
    },
    workerRegistration: async () => (options.worker === false ? null : registration),
  });
  // Stands in for the worker (or another page): it talks on the queue's channel.
  const worker = new BroadcastChannel(protocol.channel);
  const heard: unknown[] = [];
  worker.onmessage = (message: MessageEvent<unknown>) => void heard.push(message.data);
  return { client, posted, syncs, worker, heard, notify: (event: DemoEvent) => notify(event) };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the page-side queue client', () => {
  it("reads the user's items from IndexedDB first, then sends the session and a kick to the worker", async () => {
    const { client, posted } = clientWith({ stored: [item('b', { createdAt: 2 }), item('a'), item('x', { userId: '2' })] });
    await client.connect('1');
    expect(client.getItems().map((i) => i.id)).toEqual(['a', 'b']);
    await flush();
    expect(posted).toEqual([{ type: 'session', userId: '1', xsrfToken: null }, { type: 'demo:kick' }]);
    // A second user of the queue (another hook) neither reads nor kicks again.
    await client.connect('1');
    await flush();
    expect(posted).toHaveLength(2);
  });

  it('hears the worker on the channel: changes, removals, the previous state, never another user', async () => {
    const { client, worker } = clientWith({ stored: [item('a')] });
    await client.connect('1');
    const changes: [string, string | undefined][] = [];
    client.onItem((changed, previous) => changes.push([changed.status, previous?.status]));
    worker.postMessage({ type: 'demo-item', item: item('a', { status: 'completed', updatedAt: 2 }) });
    worker.postMessage({ type: 'demo-item', item: item('theirs', { userId: '2' }) });
    worker.postMessage({ type: 'demo-item', item: item('c', { createdAt: 3 }) });
    worker.postMessage({ type: 'demo-gone', ids: ['c'] });
    worker.postMessage({ type: 'something else' });
    await vi.waitFor(() =>
      expect(changes).toEqual([
        ['completed', 'pending'],
        ['pending', undefined],
      ]),
    );
    await vi.waitFor(() => expect(client.getItems().map((i) => [i.id, i.status])).toEqual([['a', 'completed']]));
  });

  it('an item the page added is heard at once here and on the channel, asks for Background Sync and kicks', async () => {
    const { client, posted, syncs, heard } = clientWith({});
    await client.connect('1');
    await flush();
    posted.length = 0;
    await client.added([{ type: 'demo-item', item: item('new') }]);
    expect(client.getItems().map((i) => i.id)).toEqual(['new']);
    expect(syncs).toEqual(['demo-sync']);
    expect(posted).toEqual([{ type: 'session', userId: '1', xsrfToken: null }, { type: 'demo:kick' }]);
    await vi.waitFor(() => expect(heard).toEqual([{ type: 'demo-item', item: item('new') }]));
    await client.send({ type: 'demo:drop', id: 'new' });
    expect(posted.at(-1)).toEqual({ type: 'demo:drop', id: 'new' });
  });

  it('keeps the worker awake with a session every 20 s while work waits, and stops when none does', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { client, posted, worker } = clientWith({ stored: [item('a')] });
    await client.connect('1');
    await flush();
    posted.length = 0;
    vi.advanceTimersByTime(20_000);
    await flush();
    expect(posted).toEqual([{ type: 'session', userId: '1', xsrfToken: null }, { type: 'demo:kick' }]);
    worker.postMessage({ type: 'demo-item', item: item('a', { status: 'completed', updatedAt: 2 }) });
    await vi.waitFor(() => expect(client.getItems()[0]?.status).toBe('completed'));
    posted.length = 0;
    vi.advanceTimersByTime(60_000);
    await flush();
    expect(posted).toEqual([]);
  });

  it('an event heard while the first read ran is not replaced by the older stored copy', async () => {
    let readDone!: () => void;
    const readGate = new Promise<void>((resolve) => (readDone = resolve));
    const { client, worker } = clientWith({ stored: [item('a', { updatedAt: 1 })], readGate });
    const connected = client.connect('1');
    worker.postMessage({ type: 'demo-item', item: item('a', { status: 'completed', updatedAt: 5 }) });
    await vi.waitFor(() => expect(client.getItems()[0]?.status).toBe('completed'));
    readDone();
    await connected;
    expect(client.getItems().map((i) => [i.id, i.status])).toEqual([['a', 'completed']]);
  });

  it('without a worker runs the queue in the page: the session sets the user and runs it; commands wait, kicks do not', async () => {
    const calls: string[] = [];
    let finishDrop!: () => void;
    const engine: PageEngine<DemoCommand> = {
      setUser: async (userId) => void calls.push(`user ${userId}`),
      run: async () => void calls.push('run'),
      apply: (command) => {
        calls.push(command.type);
        return command.type === 'demo:drop' ? new Promise<void>((resolve) => (finishDrop = resolve)) : new Promise<void>(() => undefined);
      },
    };
    const { client, notify, heard } = clientWith({ worker: false, engine });
    await client.connect('1');
    await flush();
    expect(calls).toEqual(['user 1', 'run', 'demo:kick']);
    let dropped = false;
    const drop = client.send({ type: 'demo:drop', id: 'a' }).then(() => (dropped = true));
    await flush();
    expect(dropped).toBe(false);
    finishDrop();
    await drop;
    // The page's engine reports to this page directly and to the others on the channel.
    notify({ type: 'demo-item', item: item('a') });
    expect(client.getItems().map((i) => i.id)).toEqual(['a']);
    await vi.waitFor(() => expect(heard).toHaveLength(1));
  });
});
