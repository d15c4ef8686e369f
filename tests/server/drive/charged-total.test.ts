import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../support/factories.js';
import { bytesCharged, chargedBytes } from '../../../server/modules/drive/repository.js';
import { signedInUser } from '../support/drive-factories.js';
import { servicesOf } from '../support/services-handle.js';
import { createTestApp, DIALECT, type TestApp } from '../support/test-app.js';
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

  /**
   * Imports write many rows a statement, and a transaction many statements: PostgreSQL sums each statement's
   * rows into one delta an owner and folds the transaction's deltas in at commit (migration 2026_12_03_000200),
   * SQLite adds row by row. Either way the total moves by exactly what the statement wrote.
   */
  it('moves by exactly what a multi-row insert, update or delete writes, statements and savepoints included', async () => {
    const db = servicesOf(t.app).db.kysely;
    const [a, b] = [await createUser(db), await createUser(db)];
    const summed = async (owner: number) => Number((await chargedBytes(db, owner).executeTakeFirst())?.bytes ?? 0);
    const agree = async (step: string, expected: [number, number]) => {
      expect([await bytesCharged(db, a.id), await bytesCharged(db, b.id)], `${step}: the running totals`).toEqual(expected);
      expect([await summed(a.id), await summed(b.id)], `${step}: the sums over the rows`).toEqual(expected);
    };
    const now = new Date().toISOString();
    const row = (owner: number, i: number, size: number, type = 'text') => ({
      hash: `import${owner}x${i}`,
      name: `import ${i}.txt`,
      type,
      file_size: size,
      owner_id: owner,
      workspace_id: null,
      parent_id: null,
      path: '',
      created_at: now,
      updated_at: now,
    });
    // One statement: 300 files of a, 200 of b, and folders (not charged) of both.
    const rows = [
      ...Array.from({ length: 300 }, (_, i) => row(a.id, i, 10 + i)),
      ...Array.from({ length: 200 }, (_, i) => row(b.id, 1000 + i, 7)),
      row(a.id, 5000, 999, 'folder'),
      row(b.id, 5001, 999, 'folder'),
    ];
    await db.insertInto('file_entries').values(rows).execute();
    const aBytes = 300 * 10 + (299 * 300) / 2;
    await agree('one multi-row insert', [aBytes, 1400]);

    // Many statements in one transaction, one of them undone by a savepoint, and a write that nets to nothing.
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('file_entries')
        .set({ file_size: sql<number>`file_size + 1` })
        .where('owner_id', '=', a.id)
        .where('type', '!=', 'folder')
        .execute();
      await trx
        .updateTable('file_entries')
        .set({ owner_id: b.id })
        .where('owner_id', '=', a.id)
        .where('name', 'in', ['import 0.txt', 'import 1.txt'])
        .execute();
      await sql`savepoint undone`.execute(trx);
      await trx.deleteFrom('file_entries').where('owner_id', '=', b.id).execute();
      await sql`rollback to savepoint undone`.execute(trx);
      await trx
        .updateTable('file_entries')
        .set({ name: sql<string>`name || ' renamed'` })
        .where('owner_id', 'in', [a.id, b.id])
        .execute();
      await trx.updateTable('file_entries').set({ type: 'folder' }).where('hash', '=', `import${b.id}x1000`).execute();
    });
    // a: +300 for the +1s, then 11 + 12 moved to b; b: gains those, loses the 7 bytes now a folder.
    await agree('statements in one transaction', [aBytes + 300 - 23, 1400 + 23 - 7]);

    // Several writers at once for the same owner: each total's update waits for the one before it, none is lost.
    await Promise.all(
      Array.from({ length: 6 }, (_, w) =>
        db.transaction().execute(async (trx) => {
          await trx
            .insertInto('file_entries')
            .values(Array.from({ length: 50 }, (_, i) => row(b.id, 10_000 + w * 100 + i, 3)))
            .execute();
          await trx
            .deleteFrom('file_entries')
            .where('hash', '=', `import${b.id}x${1001 + w}`)
            .execute();
        }),
      ),
    );
    await agree('six writers at once', [aBytes + 277, 1416 + 6 * 150 - 6 * 7]);

    // One multi-row delete of everything both own (cascading to nothing here) leaves nothing charged.
    await db.deleteFrom('file_entries').where('owner_id', 'in', [a.id, b.id]).execute();
    await agree('one multi-row delete', [0, 0]);
    if (DIALECT === 'postgres') {
      // Every committed delta was folded in by its own transaction.
      const left = await sql<{ n: number }>`select count(*)::int as n from charged_bytes_pending`.execute(db);
      expect(left.rows[0]!.n).toBe(0);
    }
  });
});
