import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../server/app.js';
import { loadConfig } from '../../../server/config.js';
import { examine } from '../../../server/jobs/doctor.js';
import { tidyStore } from '../../../server/jobs/tidy-store.js';
import { TestClient } from '../support/client.js';
import { signedInUser } from '../support/drive-factories.js';
import { createTestApp, DIALECT, prepareDatabase, type TestApp } from '../support/test-app.js';
import { multipartUpload } from '../uploads/support.js';
import { servicesOf } from '../support/services-handle.js';

const run = promisify(execFile);
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** `rsync -a` in miniature: a file that vanishes while we copy (a temporary file renamed away) is skipped, not an error. */
async function copyTree(from: string, to: string): Promise<void> {
  await fs.mkdir(to, { recursive: true });
  for (const entry of await fs.readdir(from, { withFileTypes: true }).catch(() => [])) {
    const source = path.join(from, entry.name);
    if (entry.isDirectory()) await copyTree(source, path.join(to, entry.name));
    else
      await fs
        .copyFile(source, path.join(to, entry.name))
        .catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? undefined : Promise.reject(error)));
  }
}

/**
 * The README's backup procedure on a running instance — the database first
 * (SQLite's online backup, or pg_dump), then the storage folder — taken
 * while uploads keep arriving, and restored elsewhere: every file
 * acknowledged before the backup began is there, whole, and once the
 * restored server has started the doctor finds nothing.
 */
describe('backup and restore of a running instance', () => {
  let t: TestApp;
  let backupDir: string;
  let restoredDb: Awaited<ReturnType<typeof prepareDatabase>>;
  beforeAll(async () => {
    t = await createTestApp();
    backupDir = path.join(t.dataDir, 'backup');
    restoredDb = await prepareDatabase();
  });
  afterAll(async () => {
    await t.close();
    await restoredDb.drop?.();
  });

  /** The database part of the README's procedure. */
  async function backUpDatabase(): Promise<void> {
    await fs.mkdir(backupDir, { recursive: true });
    if (t.config.database.dialect === 'sqlite') {
      const script = "require('better-sqlite3')(process.argv[1]).backup(process.argv[2]).then(() => console.log('done'))";
      await run(process.execPath, ['-e', script, t.config.database.file, path.join(backupDir, 'drive.sqlite')]);
    } else {
      await run('pg_dump', ['--format=custom', `--file=${path.join(backupDir, 'drive.dump')}`, t.config.database.url]);
    }
  }

  async function restoreDatabase(restoreDir: string): Promise<Record<string, string>> {
    if (DIALECT === 'sqlite') {
      await fs.copyFile(path.join(backupDir, 'drive.sqlite'), path.join(restoreDir, 'drive.sqlite'));
      return {};
    }
    await run('pg_restore', ['--no-owner', `--dbname=${restoredDb.env.DATABASE_URL}`, path.join(backupDir, 'drive.dump')]);
    return restoredDb.env;
  }

  it('finds every acknowledged file in a backup taken while uploads were running', async () => {
    const { user, client } = await signedInUser(t.app);
    const acknowledged: { hash: string; content: Buffer; at: number }[] = [];
    let stop = false;
    const uploader = async (n: number) => {
      for (let i = 0; !stop; i += 1) {
        const content = randomBytes(20_000 + ((i * 7919 + n * 104_729) % 180_000));
        const { body, headers } = multipartUpload({ parentId: '0' }, { name: `w${n}-${i}.bin`, content });
        const res = await client.request('POST', '/api/v1/file-entries', { body, headers });
        expect(res.statusCode).toBe(200);
        acknowledged.push({ hash: res.json().fileEntry.hash, content, at: Date.now() });
      }
    };
    const uploads = [0, 1, 2].map(uploader);
    while (acknowledged.length < 15) await new Promise((resolve) => setTimeout(resolve, 10));

    const backupStarted = Date.now();
    await backUpDatabase();
    const during = acknowledged.length;
    await copyTree(t.config.storageDir, path.join(backupDir, 'storage'));
    stop = true;
    await Promise.all(uploads);
    expect(acknowledged.length).toBeGreaterThan(during);

    const restoreDir = path.join(t.dataDir, 'restored');
    await fs.mkdir(restoreDir);
    await fs.rename(path.join(backupDir, 'storage'), path.join(restoreDir, 'storage'));
    const env = await restoreDatabase(restoreDir);
    const config = loadConfig({ DATA_DIR: restoreDir, WEB_DIST_DIR: path.join(restoreDir, 'none'), LOG_LEVEL: 'silent', NODE_ENV: 'test', ...env });
    const restored = await buildApp({ config, logger: false });
    try {
      // As the server does at start: what was in flight at backup time is settled first.
      await tidyStore(servicesOf(restored).storeChecks, 'start');
      const reader = new TestClient(restored);
      await reader.login(user.email, user.password);
      const before = acknowledged.filter((file) => file.at < backupStarted);
      expect(before.length).toBeGreaterThanOrEqual(15);
      for (const file of before) {
        const download = await reader.get(`/api/v1/file-entries/download?hashes=${file.hash}`);
        expect(download.statusCode).toBe(200);
        expect(sha(download.rawPayload)).toBe(sha(file.content));
      }
      expect(await examine(servicesOf(restored).storeChecks, { checksums: true, serverStopped: true })).toEqual([]);
    } finally {
      await restored.close();
    }
  }, 60_000);
});
