import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepared, PreparedShapeError } from '../../../server/db/prepared.js';
import { createUser } from '../support/factories.js';
import { servicesOf } from '../support/services-handle.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/** Issue 38 §3: statements compiled once per shape, run with each call's values. */
describe('a statement compiled once', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  const db = () => servicesOf(t.app).db.kysely;

  it("answers each call with that call's values", async () => {
    const [a, b] = [await createUser(db()), await createUser(db())];
    // A limit is part of the shape: SQLite writes it into the statement (db/inline-limit.ts).
    const byId = prepared(
      (s: { limit: number }) => String(s.limit),
      (kysely, v: { id: number }, s: { limit: number }) => kysely.selectFrom('users').select(['id', 'email']).where('id', '=', v.id).limit(s.limit),
    );
    expect(await byId(db(), { id: a.id }, { limit: 1 })).toEqual([{ id: a.id, email: a.email }]);
    expect(await byId(db(), { id: b.id }, { limit: 1 })).toEqual([{ id: b.id, email: b.email }]);
    expect(await byId(db(), { id: b.id }, { limit: 0 })).toEqual([]);
  });

  it('refuses a value that picks the statement when the shape key does not name it (tests run checked)', async () => {
    const user = await createUser(db());
    const picksByValue = prepared(
      () => 'one',
      (kysely, v: { id: number | null }) => {
        const users = kysely.selectFrom('users').select('id');
        return v.id ? users.where('id', '=', v.id) : users.where('id', 'is', null);
      },
    );
    // Compiled first from the slot standing for `id`, which is truthy: `id = ?`; a null then builds `id is null`.
    await expect(picksByValue(db(), { id: null }, null)).rejects.toBeInstanceOf(PreparedShapeError);
    const namesIt = prepared(
      (s: { known: boolean }) => (s.known ? 'known' : 'none'),
      (kysely, v: { id: number | null }, s: { known: boolean }) => {
        const users = kysely.selectFrom('users').select('id');
        return s.known ? users.where('id', '=', v.id) : users.where('id', 'is', null);
      },
    );
    expect(await namesIt(db(), { id: null }, { known: false })).toEqual([]);
    expect(await namesIt(db(), { id: user.id }, { known: true })).toEqual([{ id: user.id }]);
  });

  it('is compiled once for a database and all its transactions (a new file runs most of its statements in one)', async () => {
    const user = await createUser(db());
    let compiled = 0;
    const byId = prepared(
      () => 'one',
      (kysely, v: { id: number }) => {
        // Checked mode also builds each call with its own values; the compile stands in with a slot, never the id.
        if (v.id !== user.id) compiled += 1;
        return kysely.selectFrom('users').select('id').where('id', '=', v.id);
      },
    );
    expect(await byId(db(), { id: user.id }, null)).toEqual([{ id: user.id }]);
    for (let round = 0; round < 2; round += 1) {
      expect(
        await db()
          .transaction()
          .execute((trx) => byId(trx, { id: user.id }, null)),
      ).toEqual([{ id: user.id }]);
    }
    expect(compiled).toBe(1);
  });

  describe("on SQLite's one connection (issue 38 §3)", () => {
    const sqliteOnly = () => servicesOf(t.app).db.dialect === 'sqlite';
    const firstNameOf = prepared(
      () => 'one',
      (kysely, v: { id: number }) => kysely.selectFrom('users').select('first_name').where('id', '=', v.id),
    );

    it('runs at once when nothing holds the connection, without waiting on Kysely to lend it', async () => {
      if (!sqliteOnly()) return;
      const user = await createUser(db());
      const counter = servicesOf(t.app).db.counter;
      const before = counter.statements;
      const rows = firstNameOf(db(), { id: user.id }, null);
      // Counted in the same tick: through Kysely's provider and mutex the statement starts several promises later.
      expect(counter.statements).toBe(before + 1);
      expect(await rows).toEqual([{ first_name: 'Test' }]);
    });

    it('waits while a transaction holds the connection, and never reads its uncommitted rows', async () => {
      if (!sqliteOnly()) return;
      const user = await createUser(db());
      let written!: () => void;
      const wrote = new Promise<void>((resolve) => (written = resolve));
      let finish!: () => void;
      const finishing = new Promise<void>((resolve) => (finish = resolve));
      const transaction = db()
        .transaction()
        .execute(async (trx) => {
          await trx.updateTable('users').set({ first_name: 'Uncommitted' }).where('id', '=', user.id).execute();
          written();
          await finishing;
          await trx.updateTable('users').set({ first_name: 'Committed' }).where('id', '=', user.id).execute();
        });
      await wrote;
      const read = firstNameOf(db(), { id: user.id }, null);
      finish();
      await transaction;
      expect(await read).toEqual([{ first_name: 'Committed' }]);
      // Inside the transaction the statement takes the transaction's own connection as before.
      await db()
        .transaction()
        .execute(async (trx) => {
          await trx.updateTable('users').set({ first_name: 'Mine' }).where('id', '=', user.id).execute();
          expect(await firstNameOf(trx, { id: user.id }, null)).toEqual([{ first_name: 'Mine' }]);
        });
    });

    it('runs at once in the transaction that holds the connection, in call order, and is undone with it (issue 37)', async () => {
      if (!sqliteOnly()) return;
      const user = await createUser(db());
      const counter = servicesOf(t.app).db.counter;
      const rename = prepared(
        () => 'one',
        (kysely, v: { id: number; name: string }) => kysely.updateTable('users').set({ first_name: v.name }).where('id', '=', v.id),
      );
      const trx = await db().startTransaction().execute();
      const before = counter.statements;
      // Neither awaited: Kysely's queue would start them promises later; here each has run when the call returns.
      const first = rename(trx, { id: user.id, name: 'First' }, null);
      const second = firstNameOf(trx, { id: user.id }, null);
      expect(counter.statements).toBe(before + 2);
      await first;
      expect(await second).toEqual([{ first_name: 'First' }]);
      await trx.rollback().execute();
      expect(await firstNameOf(db(), { id: user.id }, null)).toEqual([{ first_name: 'Test' }]);
    });

    it('refuses a transaction used after its commit, as Kysely does, rather than run in whatever holds the connection next', async () => {
      if (!sqliteOnly()) return;
      const user = await createUser(db());
      const trx = await db().startTransaction().execute();
      await firstNameOf(trx, { id: user.id }, null);
      await trx.commit().execute();
      const next = await db().startTransaction().execute();
      try {
        await expect(firstNameOf(trx, { id: user.id }, null)).rejects.toThrow(/committed/);
      } finally {
        await next.rollback().execute();
      }
    });

    it('publishes a write in a transaction once it commits, so the caches drop what it replaced', async () => {
      if (!sqliteOnly()) return;
      const user = await createUser(db());
      const { changes } = servicesOf(t.app).db;
      const seen: string[] = [];
      const unsubscribe = changes.subscribe((kind) => seen.push(kind));
      try {
        const suspend = prepared(
          () => 'one',
          (kysely, v: { id: number }) => kysely.updateTable('users').set({ first_name: 'Changed' }).where('id', '=', v.id),
        );
        const trx = await db().startTransaction().execute();
        await suspend(trx, { id: user.id }, null);
        const during = seen.length;
        await trx.commit().execute();
        // Published when written (a reader elsewhere may cache the old rows meanwhile) and again at the commit.
        expect(during).toBeGreaterThan(0);
        expect(seen.length).toBeGreaterThan(during);
        expect(seen).toContain('access');
      } finally {
        unsubscribe();
      }
    });
  });
});
