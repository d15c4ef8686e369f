import { afterEach, describe, expect, it, vi } from 'vitest';
import { TIMED_OUT } from '../../../src/offline/queues/uploads/rules';
import { UploadFailure } from '../../../src/offline/queues/uploads/transport';
import { flush, makeEntry, makeItem, setup } from './helpers';

describe('upload engine', () => {
  afterEach(() => vi.useRealTimers());

  it('moves an item pending → inProgress → completed with its entry, broadcasting each change, and frees its bytes', async () => {
    const { engine, plain, events, add, db } = await setup();
    const item = makeItem({ id: 'a' });
    await add(item);
    const run = engine.run();
    await flush();
    expect(plain.calls).toHaveLength(1);
    plain.calls[0]?.context.onProgress(50);
    await flush();
    expect((await db.items.get('a'))?.percentage).toBe(50);
    plain.calls[0]?.resolve(makeEntry('a.txt'));
    await run;
    const done = await db.items.get('a');
    expect(done?.status).toBe('completed');
    expect(done?.entry?.name).toBe('a.txt');
    expect(done?.percentage).toBe(100);
    expect(await db.blobs.get('a')).toBeUndefined();
    const statuses = events.flatMap((e) => (e.type === 'item' ? [e.item.status] : []));
    expect(statuses[0]).toBe('inProgress');
    expect(statuses.at(-1)).toBe('completed');
  });

  it('runs three plain uploads at a time and advances as each finishes', async () => {
    const { engine, plain, add, statusOf } = await setup();
    const items = [0, 1, 2, 3, 4].map((i) => makeItem({ id: `p${i}`, createdAt: i }));
    await add(...items);
    const run = engine.run();
    await flush();
    expect(plain.calls.map((c) => c.item.id)).toEqual(['p0', 'p1', 'p2']);
    expect(await statusOf('p3')).toBe('pending');
    plain.calls[1]?.resolve(makeEntry('p1'));
    await flush();
    expect(plain.calls.map((c) => c.item.id)).toEqual(['p0', 'p1', 'p2', 'p3']);
    for (const call of plain.calls) call.resolve(makeEntry(call.item.id));
    await flush();
    for (const call of plain.calls) call.resolve(makeEntry(call.item.id));
    await run;
    expect(plain.calls).toHaveLength(5);
    for (const item of items) expect(await statusOf(item.id)).toBe('completed');
  });

  it('drops to one at a time while an item has a relative path or goes through tus', async () => {
    const { engine, plain, tus, add } = await setup();
    await add(makeItem({ id: 'f1', relativePath: 'photos/a.jpg', createdAt: 1 }), makeItem({ id: 'f2', relativePath: 'photos/b.jpg', createdAt: 2 }));
    void engine.run();
    await flush();
    expect(plain.calls).toHaveLength(1);
    plain.calls[0]?.resolve(makeEntry('a'));
    await flush();
    expect(plain.calls).toHaveLength(2);
    plain.calls[1]?.resolve(makeEntry('b'));
    await flush();

    await add(makeItem({ id: 't1', method: 'tus', createdAt: 3 }), makeItem({ id: 'p1', createdAt: 4 }));
    void engine.run();
    await flush();
    expect(tus.calls).toHaveLength(1);
    expect(plain.calls).toHaveLength(2);
    tus.calls[0]?.resolve(makeEntry('t'));
    await flush();
    expect(plain.calls).toHaveLength(3);
  });

  it("fails with 'Upload timed out' after 30 s without progress, and progress restarts the clock", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { engine, plain, add, db } = await setup();
    await add(makeItem({ id: 'slow' }));
    void engine.run();
    await flush();
    await vi.advanceTimersByTimeAsync(29_000);
    plain.calls[0]?.context.onProgress(10);
    await flush();
    await vi.advanceTimersByTimeAsync(29_000);
    await flush();
    expect((await db.items.get('slow'))?.status).toBe('inProgress');
    await vi.advanceTimersByTimeAsync(1_000);
    await flush();
    const failed = await db.items.get('slow');
    expect(failed?.status).toBe('failed');
    expect(failed?.errorMessage).toBe(TIMED_OUT);
    expect(plain.calls[0]?.aborted).toBe(true);
  });

  it('offers no retry when the server refused the upload or the folder is gone', async () => {
    const { engine, plain, add, db } = await setup();
    await add(makeItem({ id: 'refused', createdAt: 1 }), makeItem({ id: 'gone', createdAt: 2 }));
    const run = engine.run();
    await flush();
    plain.calls[0]?.reject(new UploadFailure('http', 403, 'This action is unauthorized.'));
    plain.calls[1]?.reject(new UploadFailure('http', 404, 'This folder does not exist.'));
    await run;
    expect(await db.items.get('refused')).toMatchObject({ status: 'failed', errorMessage: 'This action is unauthorized.', retryable: false });
    expect(await db.items.get('gone')).toMatchObject({ status: 'failed', retryable: false });
  });

  it("shows the server's message on failure and keeps the item, its bytes and a retry", async () => {
    const { engine, plain, add, db } = await setup();
    await add(makeItem({ id: 'big' }));
    const run = engine.run();
    await flush();
    plain.calls[0]?.reject(new UploadFailure('http', 413, 'You have exhausted your allowed space.'));
    await run;
    const failed = await db.items.get('big');
    expect(failed).toMatchObject({ status: 'failed', errorMessage: 'You have exhausted your allowed space.', retryable: true });
    expect(await db.blobs.get('big')).toBeDefined();

    const again = engine.retry('big');
    await again;
    await flush();
    expect(plain.calls).toHaveLength(2);
    plain.calls[1]?.resolve(makeEntry('big'));
    await flush();
    expect((await db.items.get('big'))?.status).toBe('completed');
  });

  it('a user abort ends as aborted and the queue advances', async () => {
    const { engine, plain, add, statusOf } = await setup();
    await add(...[0, 1, 2, 3].map((i) => makeItem({ id: `c${i}`, createdAt: i })));
    void engine.run();
    await flush();
    await engine.cancel('c0');
    await flush();
    expect(plain.calls[0]?.aborted).toBe(true);
    expect(await statusOf('c0')).toBe('aborted');
    expect(plain.calls.map((c) => c.item.id)).toContain('c3');
    // The aborted attempt's late rejection does not overwrite the state.
    expect(await statusOf('c0')).toBe('aborted');
  });

  it('waits for the network instead of failing when it goes away, and starts when it returns', async () => {
    const { engine, plain, add, network, db } = await setup();
    network.online = false;
    await add(makeItem({ id: 'off' }));
    await engine.run();
    expect(plain.calls).toHaveLength(0);
    expect((await db.items.get('off'))?.status).toBe('pending');

    network.online = true;
    void engine.run();
    await flush();
    network.online = false;
    plain.calls[0]?.reject(new UploadFailure('network'));
    await flush();
    expect(await db.items.get('off')).toMatchObject({ status: 'pending', waitingForNetwork: true, errorMessage: null });

    network.online = true;
    void engine.run();
    await flush();
    expect(plain.calls).toHaveLength(2);
  });

  it('a tus offset conflict while offline waits for the network instead of failing', async () => {
    const { engine, plain, add, network, db } = await setup();
    await add(makeItem({ id: 'conflict' }));
    void engine.run();
    await flush();
    network.online = false;
    plain.calls[0]?.reject(new UploadFailure('http', 409));
    await flush();
    expect(await db.items.get('conflict')).toMatchObject({ status: 'pending', waitingForNetwork: true });

    // Online, the same answer is a real failure (the tus client already resynchronised and retried).
    network.online = true;
    void engine.run();
    await flush();
    plain.calls[1]?.reject(new UploadFailure('http', 409));
    await flush();
    expect((await db.items.get('conflict'))?.status).toBe('failed');
  });

  it('an unreachable server parks the item until the next trigger instead of failing or looping', async () => {
    const { engine, plain, add, db } = await setup();
    await add(makeItem({ id: 'down' }));
    void engine.run();
    await flush();
    plain.calls[0]?.reject(new UploadFailure('network'));
    await flush();
    expect(await db.items.get('down')).toMatchObject({ status: 'pending', waitingForNetwork: true });
    expect(plain.calls).toHaveLength(1);
    void engine.run();
    await flush();
    expect(plain.calls).toHaveLength(2);
  });

  it('while the device says it is online, tries an unreachable server again after a pause that doubles, and only then', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { engine, plain, add, network, db } = await setup();
    await add(makeItem({ id: 'flaky' }));
    void engine.run();
    await flush();
    const failAndWait = async (ms: number) => {
      plain.calls.at(-1)?.reject(new UploadFailure('network'));
      await flush();
      const before = plain.calls.length;
      await vi.advanceTimersByTimeAsync(ms - 1);
      await flush();
      expect(plain.calls, `no attempt before ${ms} ms`).toHaveLength(before);
      await vi.advanceTimersByTimeAsync(1);
      await flush();
      expect(plain.calls, `an attempt after ${ms} ms`).toHaveLength(before + 1);
    };
    for (const pause of [1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]) await failAndWait(pause);
    expect(plain.calls).toHaveLength(8);

    // Offline, the `online` event is the trigger: no timer runs the queue.
    network.online = false;
    plain.calls.at(-1)?.reject(new UploadFailure('network'));
    await flush();
    await vi.advanceTimersByTimeAsync(60_000);
    await flush();
    expect(plain.calls).toHaveLength(8);
    expect(await db.items.get('flaky')).toMatchObject({ status: 'pending', waitingForNetwork: true });

    // A trigger that gets through starts the pauses again from the first.
    network.online = true;
    void engine.run();
    await flush();
    plain.calls.at(-1)?.resolve(makeEntry('flaky.txt'));
    await flush();
    expect((await db.items.get('flaky'))?.status).toBe('completed');
  });

  it('only sends the items of the signed-in user', async () => {
    const { engine, plain, add } = await setup();
    await add(makeItem({ id: 'mine', userId: '1' }), makeItem({ id: 'theirs', userId: '2' }));
    await engine.setUser('1');
    void engine.run();
    await flush();
    expect(plain.calls.map((c) => c.item.id)).toEqual(['mine']);
  });

  it('clearing removes completed and aborted items with their bytes, never failed ones', async () => {
    const { engine, add, db, events } = await setup();
    await add(makeItem({ id: 'ok', status: 'completed' }), makeItem({ id: 'no', status: 'aborted' }), makeItem({ id: 'bad', status: 'failed' }));
    await engine.clear('1');
    expect((await db.items.toArray()).map((i) => i.id)).toEqual(['bad']);
    expect(await db.blobs.get('no')).toBeUndefined();
    expect(events).toContainEqual({ type: 'removed', ids: expect.arrayContaining(['ok', 'no']) as string[] });
  });
});
