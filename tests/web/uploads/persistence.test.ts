import { describe, expect, it } from 'vitest';
import { UploadEngine } from '../../../src/offline/queues/uploads/engine';
import { fakeTransport, flush, makeEntry, makeItem, setup } from './helpers';

describe('queue persistence', () => {
  it('a new worker picks up what the last one left: interrupted uploads resume from their tus URL, pending ones start', async () => {
    const { db, add } = await setup();
    const url = 'http://drive.test/api/v1/tus/upload/key1';
    await add(
      makeItem({ id: 'cut', method: 'tus', status: 'inProgress', tusUrl: url, bytesUploaded: 50, percentage: 50, createdAt: 1 }),
      makeItem({ id: 'later', status: 'pending', createdAt: 2 }),
    );

    // A fresh engine over the same database, as after a reload or a browser restart.
    const tus = fakeTransport();
    const plain = fakeTransport();
    const engine = new UploadEngine({
      db,
      transports: { plain: plain.transport, tus: tus.transport, s3Simple: plain.transport, s3Multipart: tus.transport },
      notify: () => {},
      isOnline: () => true,
    });
    await engine.setUser('1');
    void engine.run();
    await flush();

    expect(tus.calls).toHaveLength(1);
    expect(tus.calls[0]?.item).toMatchObject({ id: 'cut', tusUrl: url, bytesUploaded: 50 });
    // tus counts as chunked: the plain one waits its turn.
    expect(plain.calls).toHaveLength(0);
    tus.calls[0]?.resolve(makeEntry('cut'));
    await flush();
    expect(plain.calls.map((c) => c.item.id)).toEqual(['later']);
    expect((await db.items.get('cut'))?.status).toBe('completed');
  });

  it('stores the tus URL as soon as the server creates it', async () => {
    const { engine, tus, add, db } = await setup();
    await add(makeItem({ id: 't', method: 'tus' }));
    void engine.run();
    await flush();
    tus.calls[0]?.context.onUploadUrl('http://drive.test/api/v1/tus/upload/k');
    await flush();
    expect((await db.items.get('t'))?.tusUrl).toBe('http://drive.test/api/v1/tus/upload/k');
  });
});
