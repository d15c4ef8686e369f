import fs from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Database as SqliteDatabase } from 'better-sqlite3';

/**
 * SQLite's WAL checkpoints on a thread of their own. By default the
 * connection that commits past `wal_autocheckpoint` pages (1,000) copies the
 * WAL back into the database file and syncs it, inside that commit: on the
 * event loop, about 50 µs of every small WebDAV PUT's insert and commit
 * (issue 37; a loop of inserts with checkpoints on another thread:
 * insert 130-145 → 87-120 µs, commit 70-93 → 44-56 µs a row). Here a worker
 * thread with its own connection runs a PASSIVE checkpoint (which never
 * blocks a writer or a reader) every `everyMs`, and the app's connection only
 * checkpoints itself as a safety net, past `SAFETY_NET_PAGES` (the worker
 * gone or far behind).
 *
 * The worker starts once the WAL reaches `startAtBytes`: a database that is
 * barely written to (most test apps) never pays for a thread.
 */
export interface CheckpointerOptions {
  everyMs?: number;
  startAtBytes?: number;
  /** How often the WAL's size is looked at until the worker starts. */
  watchMs?: number;
  onError?: (error: Error) => void;
}

/** The app's own connection checkpoints past this many pages (~40 MB): only when the worker is not keeping up. */
export const SAFETY_NET_PAGES = 10_000;
/** SQLite's default, back in force if the worker fails. */
const DEFAULT_AUTOCHECKPOINT = 1000;

// CommonJS, run with `eval`: the same under tsc's output and under tests that run the TypeScript sources.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    clearInterval(timer);
    throw error;
  }
}, workerData.everyMs);
parentPort.once('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export class BackgroundCheckpointer {
  private worker: Worker | null = null;
  private watch: NodeJS.Timeout | null;

  constructor(
    private readonly sqlite: SqliteDatabase,
    private readonly file: string,
    private readonly options: CheckpointerOptions = {},
  ) {
    this.watch = setInterval(() => this.startIfWritten(), options.watchMs ?? 1000);
    this.watch.unref();
  }

  /** Whether the worker runs (tests). */
  get running(): boolean {
    return this.worker !== null;
  }

  private startIfWritten(): void {
    let size: number;
    try {
      size = fs.statSync(`${this.file}-wal`).size;
    } catch {
      return;
    }
    if (size < (this.options.startAtBytes ?? 1024 * 1024)) return;
    clearInterval(this.watch!);
    this.watch = null;
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { file: this.file, driver: createRequire(import.meta.url).resolve('better-sqlite3'), everyMs: this.options.everyMs ?? 100 },
    });
    // It must not keep a process alive that is otherwise done (a CLI command, a test).
    worker.unref();
    // Gone other than by stop (an error, or ended from outside): the app's connection checkpoints as SQLite does by
    // default again.
    const gone = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = null;
      if (this.sqlite.open) this.sqlite.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT}`);
      this.options.onError?.(error);
    };
    worker.once('error', gone);
    worker.once('exit', (code) => gone(new Error(`it exited with ${code}`)));
    this.worker = worker;
    this.sqlite.pragma(`wal_autocheckpoint = ${SAFETY_NET_PAGES}`);
  }

  /** Before the app's connection closes (which checkpoints whatever is left, as the last connection). */
  async stop(): Promise<void> {
    if (this.watch) clearInterval(this.watch);
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage('stop');
    await exited;
  }
}
