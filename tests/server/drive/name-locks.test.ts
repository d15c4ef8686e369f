import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { actorFor, signedInUser } from '../support/drive-factories.js';
import { servicesOf } from '../support/services-handle.js';

/**
 * Names are claimed under folder locks (db/locks.ts): parallel writers of one
 * name never both take it, and transactions that add names to several folders
 * (folder uploads, copies, moves, restores) take them in one order, so a burst
 * of them finishes without a deadlock.
 */
describe('names under folder locks', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const setup = async () => {
    const { user } = await signedInUser(t.app);
    const actor = await actorFor(t.app, user);
    const scope = await servicesOf(t.app).drive.scope(actor, null);
    const names = async (parentHash: string | null) =>
      (await servicesOf(t.app).drive.facade.children(actor, scope, parentHash)).map((entry) => entry.name).sort();
    const child = async (parentHash: string | null, name: string) =>
      (await servicesOf(t.app).drive.facade.children(actor, scope, parentHash)).find((entry) => entry.name === name)!;
    return { actor, scope, names, child };
  };

  it('gives ten parallel uploads of one name ten names', async () => {
    const { actor, scope, names } = await setup();
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        servicesOf(t.app).drive.files.createFileFromStream(actor, scope, { parentId: null, name: 'x.txt', stream: Readable.from([Buffer.from(`copy ${i}`)]) }),
      ),
    );
    expect(await names(null)).toEqual([
      'x (1).txt',
      'x (2).txt',
      'x (3).txt',
      'x (4).txt',
      'x (5).txt',
      'x (6).txt',
      'x (7).txt',
      'x (8).txt',
      'x (9).txt',
      'x.txt',
    ]);
  });

  it('finishes a burst of folder uploads, copies and moves over the same folders without a deadlock or a doubled folder', async () => {
    const { actor, scope, names, child } = await setup();
    const store = (segments: string[], name: string) =>
      servicesOf(t.app).drive.facade.storeFile(actor, scope, { parentId: null, segments }, { name, stream: Readable.from([Buffer.from(name)]) });
    await store(['a', 'b'], 'seed.txt');
    await store(['z'], 'seed.txt');
    const a = (await child(null, 'a')).hash;
    const z = (await child(null, 'z')).hash;
    const work: Promise<unknown>[] = [];
    for (let i = 0; i < 6; i += 1) {
      work.push(store(['a', 'b', 'c'], `deep-${i}.txt`));
      work.push(store(['z', 'b'], `other-${i}.txt`));
      // Copies of a into z and of z into a: each adds names in the other's folders.
      work.push(servicesOf(t.app).drive.entries.duplicate(actor, scope, [a], z));
      work.push(servicesOf(t.app).drive.entries.duplicate(actor, scope, [z], a));
    }
    const results = await Promise.allSettled(work);
    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
    expect(await names(null)).toEqual(['a', 'z']);
    expect(await names(a)).toEqual(['b', 'z', 'z (1)', 'z (2)', 'z (3)', 'z (4)', 'z (5)']);
    const b = (await child(a, 'b')).hash;
    expect(await names(b)).toEqual(['c', 'seed.txt']);
    expect(await names((await child(b, 'c')).hash)).toEqual([0, 1, 2, 3, 4, 5].map((i) => `deep-${i}.txt`));
  });
});
