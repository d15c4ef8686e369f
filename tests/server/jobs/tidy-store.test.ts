import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { tidyStore } from '../../../server/jobs/tidy-store.js';
import { createUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { backdate, filesBelow, plant } from '../recovery/support.js';
import { servicesOf } from '../support/services-handle.js';

const MINUTE = 60 * 1000;

/**
 * Housekeeping removes what a cut-off request left only once nothing can
 * still be writing it; start-up (before listening) removes all of it.
 */
describe('tidying the store', () => {
  let t: TestApp;
  let drive: string;
  let tus: string;
  let userId: number;
  afterAll(() => t?.close());
  beforeEach(async () => {
    await t?.close();
    t = await createTestApp();
    drive = path.join(t.config.storageDir, 'drive');
    tus = path.join(t.config.storageDir, 'tus');
    userId = (await createUser(servicesOf(t.app).db.kysely)).id;
  });

  const reserve = (key: string, kind: 'tus' | 'plain', ageMs: number) =>
    servicesOf(t.app)
      .db.kysely.insertInto('upload_reservations')
      .values({
        key,
        user_id: userId,
        uploader_id: userId,
        bytes: 100,
        kind,
        created_at: new Date(Date.now() - ageMs).toISOString(),
        expires_at: new Date(Date.now() + 60 * MINUTE).toISOString(),
      })
      .execute();
  const reservationKeys = async () =>
    (await servicesOf(t.app).db.kysely.selectFrom('upload_reservations').select('key').orderBy('key').execute()).map((r) => r.key);
  const exists = (file: string) =>
    fs.stat(file).then(
      () => true,
      () => false,
    );

  it('while running: only leftovers nothing can still be writing, and stray bytes older than any upload in flight', async () => {
    await plant(path.join(drive, '.tmp', 'old.part'), 'x', 120 * MINUTE);
    await plant(path.join(drive, '.tmp', 'fresh.part'), 'x', 0);
    await fs.mkdir(path.join(drive, 'oldempty'));
    await backdate(path.join(drive, 'oldempty'), 120 * MINUTE);
    await fs.mkdir(path.join(drive, 'freshempty'));
    await plant(path.join(drive, 'oldstray', 'object'), 'x', 120 * MINUTE);
    await plant(path.join(drive, 'guarded', 'object'), 'x', 20 * MINUTE);
    await plant(path.join(drive, 'freshstray', 'object'), 'x', 0);
    await plant(path.join(tus, 'orphan'), 'x', 120 * MINUTE);
    await plant(path.join(tus, 'orphan.json'), '{}', 120 * MINUTE);
    await plant(path.join(tus, 'young'), 'x', 0);
    await plant(path.join(tus, 'young.json'), '{}', 0);
    await reserve('tus-gone', 'tus', 20 * MINUTE);
    await reserve('tus-starting', 'tus', 0);
    await reserve('plain-dead', 'plain', 120 * MINUTE);
    // A plain upload in flight for half an hour: anything written since may be its bytes about to commit.
    await reserve('plain-running', 'plain', 30 * MINUTE);

    const counts = await tidyStore(servicesOf(t.app).storeChecks, 'running');

    expect(counts).toEqual({
      'reservation-without-upload': 2,
      'upload-without-reservation': 1,
      'unreferenced-bytes': 1,
      'temporary-file': 1,
      'empty-folder': 1,
    });
    expect(await reservationKeys()).toEqual(['plain-running', 'tus-starting']);
    expect(await filesBelow(path.join(drive, '.tmp'))).toEqual(['fresh.part']);
    expect(await exists(path.join(drive, 'oldempty'))).toBe(false);
    expect(await exists(path.join(drive, 'freshempty'))).toBe(true);
    expect(await exists(path.join(drive, 'oldstray'))).toBe(false);
    expect(await exists(path.join(drive, 'guarded', 'object'))).toBe(true);
    expect(await exists(path.join(drive, 'freshstray', 'object'))).toBe(true);
    expect((await filesBelow(tus)).sort()).toEqual(['young', 'young.json']);
  });

  it('at start-up: everything a dead process left, including uploads that received no byte', async () => {
    await plant(path.join(drive, '.tmp', 'fresh.part'), 'x', 0);
    await fs.mkdir(path.join(drive, 'freshempty'));
    await plant(path.join(drive, 'freshstray', 'object'), 'x', 0);
    await plant(path.join(tus, 'empty'), '', 0);
    await plant(path.join(tus, 'empty.json'), '{}', 0);
    await plant(path.join(tus, 'halfway'), 'some bytes', 0);
    await plant(path.join(tus, 'halfway.json'), '{}', 0);
    await reserve('empty', 'tus', 0);
    await reserve('halfway', 'tus', 0);
    await reserve('plain-cut', 'plain', 0);

    await tidyStore(servicesOf(t.app).storeChecks, 'start');

    expect(await reservationKeys()).toEqual(['halfway']);
    expect((await filesBelow(tus)).sort()).toEqual(['halfway', 'halfway.json']);
    expect(await filesBelow(drive)).toEqual([]);
    expect(await exists(path.join(drive, 'freshempty'))).toBe(false);
  });
});
