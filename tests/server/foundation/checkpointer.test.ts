import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { BackgroundCheckpointer, SAFETY_NET_PAGES } from '../../../server/db/checkpointer.js';

/** Issue 37: SQLite's WAL is copied back into the database file by a thread of its own, not inside a request's commit. */
describe('the background checkpointer', () => {
  const opened: { sqlite: SqliteDatabase.Database; checkpointer?: BackgroundCheckpointer; dir: string }[] = [];
  afterEach(async () => {
    for (const { sqlite, checkpointer, dir } of opened.splice(0)) {
      await checkpointer?.stop();
      sqlite.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  function database() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'checkpointer-'));
    const file = path.join(dir, 'test.sqlite');
    const sqlite = new SqliteDatabase(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.exec('create table rows (id integer primary key, body text not null)');
    const entry = { sqlite, dir, file } as { sqlite: SqliteDatabase.Database; checkpointer?: BackgroundCheckpointer; dir: string; file: string };
    opened.push(entry);
    return entry;
  }

  /** About 2 MB of new pages, in many small commits (as a PUT makes them). */
  function write(sqlite: SqliteDatabase.Database) {
    const insert = sqlite.prepare('insert into rows (body) values (?)');
    for (let i = 0; i < 500; i += 1) insert.run('x'.repeat(4000));
  }

  async function until(condition: () => boolean, what: string) {
    for (let waited = 0; !condition(); waited += 20) {
      if (waited > 10_000) throw new Error(`still not ${what} after 10 s`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it("copies the WAL into the database file while the app's own connection does not checkpoint", async () => {
    const db = database();
    db.checkpointer = new BackgroundCheckpointer(db.sqlite, db.file, { startAtBytes: 64 * 1024, watchMs: 10, everyMs: 10 });
    const before = fs.statSync(db.file).size;
    write(db.sqlite);
    await until(() => db.checkpointer!.running, 'started');
    // From then on the app's connection would checkpoint only past the safety net (~40 MB), far above these 2 MB.
    expect(db.sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(SAFETY_NET_PAGES);
    await until(() => fs.statSync(db.file).size > before + 1024 * 1024, 'copied into the database file');
    expect(db.sqlite.prepare('select count(*) as n from rows').get()).toEqual({ n: 500 });
  });

  it("gives the app's connection SQLite's own checkpoints back when the thread fails, and says so", async () => {
    const db = database();
    // A WAL big enough to start the thread, beside a database file the thread cannot open.
    const missing = path.join(db.dir, 'gone.sqlite');
    fs.writeFileSync(`${missing}-wal`, Buffer.alloc(128 * 1024));
    const errors: Error[] = [];
    db.checkpointer = new BackgroundCheckpointer(db.sqlite, missing, { startAtBytes: 64 * 1024, watchMs: 10, onError: (error) => errors.push(error) });
    await until(() => errors.length > 0, 'reported');
    expect(db.checkpointer.running).toBe(false);
    expect(db.sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
  });

  it('starts no thread for a database that stays small, and stops its thread before the connection closes', async () => {
    const idle = database();
    idle.checkpointer = new BackgroundCheckpointer(idle.sqlite, idle.file, { startAtBytes: 64 * 1024 * 1024, watchMs: 10 });
    idle.sqlite.prepare('insert into rows (body) values (?)').run('small');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(idle.checkpointer.running).toBe(false);
    // SQLite's default stays in force: the app's connection checkpoints as usual.
    expect(idle.sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);

    const busy = database();
    busy.checkpointer = new BackgroundCheckpointer(busy.sqlite, busy.file, { startAtBytes: 64 * 1024, watchMs: 10, everyMs: 10 });
    write(busy.sqlite);
    await until(() => busy.checkpointer!.running, 'started');
    await busy.checkpointer.stop();
    expect(busy.checkpointer.running).toBe(false);
    write(busy.sqlite);
    expect(busy.sqlite.prepare('select count(*) as n from rows').get()).toEqual({ n: 1000 });
  });
});
