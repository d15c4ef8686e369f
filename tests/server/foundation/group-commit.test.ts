import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GroupCommit } from '../../../server/db/group-commit.js';
import type { Database } from '../../../server/db/types.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

/**
 * Group commit (server/db/group-commit.ts) on the app's own database: units
 * that wait together commit in one transaction, and each answers for itself.
 * It works on a table of its own, so that no module's rules are involved.
 */
describe('GroupCommit', () => {
  let t: TestApp;
  let db: Kysely<Database>;
  const table = 'group_commit_probe';
  const rows = async () => (await sql<{ name: string }>`select name from ${sql.table(table)} order by name`.execute(db)).rows.map((row) => row.name);
  const insert = (trx: Kysely<Database>, name: string) => sql`insert into ${sql.table(table)} (name) values (${name})`.execute(trx);

  beforeAll(async () => {
    t = await createTestApp();
    db = servicesOf(t.app).db.kysely;
    await sql`create table ${sql.table(table)} (name varchar(50) primary key)`.execute(db);
  });
  afterAll(() => t.close());

  /** Units announced first and run together: they wait for one another, so they group (on a grouping instance). */
  async function together(commits: GroupCommit, works: ((trx: Kysely<Database>) => Promise<unknown>)[]) {
    const announced = works.map(() => commits.expect());
    return Promise.allSettled(works.map((work, i) => commits.run(work, announced[i])));
  }

  it('commits waiting units in one transaction; one that throws is rolled back alone and gets its own error', async () => {
    const commits = new GroupCommit(db, true);
    const settled = await together(commits, [
      (trx) => insert(trx, 'a1'),
      async (trx) => {
        await insert(trx, 'a2');
        throw new Error('refused');
      },
      (trx) => insert(trx, 'a3'),
    ]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((settled[1] as PromiseRejectedResult).reason).toEqual(new Error('refused'));
    expect(commits.grouped).toEqual({ units: 2, groups: 1 });
    expect(await rows()).toEqual(['a1', 'a3']);
  });

  it('rolls back only the statements of a unit whose own statement failed (a duplicate key), not the group', async () => {
    await insert(db, 'b0');
    const commits = new GroupCommit(db, true);
    const settled = await together(commits, [
      (trx) => insert(trx, 'b1'),
      async (trx) => {
        await insert(trx, 'b2');
        await insert(trx, 'b0');
      },
      (trx) => insert(trx, 'b3'),
    ]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(commits.grouped.groups).toBe(1);
    expect((await rows()).filter((name) => name.startsWith('b'))).toEqual(['b0', 'b1', 'b3']);
  });

  it('runs each unit again alone when the group’s commit fails, so only the unit at fault fails', async () => {
    const commits = new GroupCommit(db, true);
    // The same new name from two units: the group's transaction fails on the second (a unique key), which is rolled
    // back to its savepoint; to fail the commit itself, a deferred check is needed, which SQLite has for foreign keys
    // only: this unit's row names a parent that does not exist, found at COMMIT.
    const child = 'group_commit_child';
    await sql`create table ${sql.table(child)} (name varchar(50) primary key, parent varchar(50) references ${sql.table(table)} (name) deferrable initially deferred)`.execute(
      db,
    );
    const settled = await together(commits, [
      (trx) => insert(trx, 'c1'),
      (trx) => sql`insert into ${sql.table(child)} (name, parent) values ('orphan', 'nobody')`.execute(trx),
      (trx) => insert(trx, 'c3'),
    ]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((settled[1] as PromiseRejectedResult).reason)).toMatch(/foreign key/i);
    // Nothing committed as a group: the two good units committed alone.
    expect(commits.grouped.groups).toBe(0);
    expect((await rows()).filter((name) => name.startsWith('c'))).toEqual(['c1', 'c3']);
    expect((await sql<{ n: number }>`select count(*) as n from ${sql.table(child)}`.execute(db)).rows[0]!.n).toEqual(0);
  });

  it('runs a lone unit alone, and a unit announced but never run does not stop the others', async () => {
    const commits = new GroupCommit(db, true);
    const gone = commits.expect();
    // The gathering window ends without the unit that never came; a second `done` changes nothing.
    await commits.run((trx) => insert(trx, 'd1'));
    gone.done();
    gone.done();
    await commits.run((trx) => insert(trx, 'd2'));
    expect((await rows()).filter((name) => name.startsWith('d'))).toEqual(['d1', 'd2']);
    expect(commits.grouped.groups).toBe(0);
  });

  it('is a plain transaction per unit when off (PostgreSQL)', async () => {
    const commits = new GroupCommit(db, false);
    const settled = await together(commits, [(trx) => insert(trx, 'e1'), (trx) => insert(trx, 'e2')]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled']);
    expect(commits.grouped).toEqual({ units: 0, groups: 0 });
    expect((await rows()).filter((name) => name.startsWith('e'))).toEqual(['e1', 'e2']);
  });
});
