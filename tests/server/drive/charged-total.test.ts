import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bytesCharged, chargedBytes } from '../../../server/modules/drive/repository.js';
import { signedInUser } from '../support/drive-factories.js';
import { servicesOf } from '../support/services-handle.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { basic, dav, davToken, upload } from '../versions/support.js';

/**
 * What a payer is charged is a running total the database keeps by triggers
 * (migration 2026_11_29_000300), read by the quota check before every upload.
 * Whatever writes sizes — uploads, replaces (versions), copies, moves, the
 * trash, deleting forever — it stays equal to the sum over the files and
 * versions it replaced.
 */
describe('charged bytes: the running total', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('stays equal to the sum of files (trash included, folders aside) and versions through every kind of write', async () => {
    const { user, client } = await signedInUser(t.app);
    const db = servicesOf(t.app).db.kysely;
    const auth = basic(await davToken(t.app, user.id));
    const summed = async () => Number((await chargedBytes(db, user.id).executeTakeFirst())?.bytes ?? 0);
    const agrees = async (step: string, expected?: number) => {
      const total = await bytesCharged(db, user.id);
      expect(total, step).toBe(await summed());
      if (expected !== undefined) expect(total, step).toBe(expected);
    };
    await agrees('nothing yet', 0);
    expect((await dav(t.app, 'MKCOL', '/dav/My%20drive/a', auth)).statusCode).toBe(201);
    expect((await dav(t.app, 'PUT', '/dav/My%20drive/a/one.txt', auth, '12345')).statusCode).toBe(201);
    expect((await dav(t.app, 'PUT', '/dav/My%20drive/a/two.txt', auth, '123')).statusCode).toBe(201);
    await agrees('two files', 8);
    // A replace: the old bytes are a version, charged too.
    expect((await dav(t.app, 'PUT', '/dav/My%20drive/a/one.txt', auth, '1234567')).statusCode).toBe(204);
    await agrees('a replace', 7 + 3 + 5);
    expect((await dav(t.app, 'COPY', '/dav/My%20drive/a', { ...auth, destination: '/dav/My%20drive/b' })).statusCode).toBe(201);
    await agrees('a folder copied', 15 + 10);
    expect((await dav(t.app, 'MOVE', '/dav/My%20drive/b/two.txt', { ...auth, destination: '/dav/My%20drive/two.txt' })).statusCode).toBe(201);
    await agrees('a move', 25);
    const uploaded = await upload(client, 'web.txt', 'web bytes');
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    await agrees('an upload', 34);
    // The trash still counts; deleting forever does not.
    expect((await dav(t.app, 'DELETE', '/dav/My%20drive/b', auth)).statusCode).toBe(204);
    await agrees('in the trash', 34);
    const listed = (await client.get('/api/v1/drive/file-entries?deletedOnly=true')).json().pagination.data as { id: string; name: string }[];
    const trashed = listed.find((entry) => entry.name === 'b')!;
    expect((await client.post('/api/v1/file-entries/delete', { entryIds: [trashed.id], deleteForever: true })).statusCode).toBe(200);
    await agrees('deleted forever', 34 - 7);
    // Every user's total agrees with the sum, not just this one's.
    const all = await db.selectFrom('charged_bytes').select(['user_id', 'bytes']).execute();
    for (const row of all) expect(Number(row.bytes), `user ${row.user_id}`).toBe(Number((await chargedBytes(db, row.user_id).executeTakeFirst())?.bytes ?? 0));
  });
});
