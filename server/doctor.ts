import fs from 'node:fs';
import { ConfigError, loadConfig } from './config.js';
import { createDb } from './db/index.js';
import { pendingMigrations } from './db/migrate.js';
import { runDoctor } from './jobs/doctor.js';
import { createDisks } from './storage/disks.js';
import { createStoreChecks } from './upkeep.js';

const OPTIONS = ['--repair', '--skip-checksums', '--server-stopped'];
const USAGE = `Usage: npm run doctor -- [--repair] [--skip-checksums] [--server-stopped]

Checks the database against the storage folder: entries whose bytes are
missing, bytes no entry points to, sizes and checksums that disagree, folder
size roll-ups, upload reservations without uploads, leftovers of cut-off
writes (and, on SQLite, PRAGMA quick_check). Read-only unless --repair,
which fixes what is safe and never deletes bytes an entry points to.
On a running server, leftovers younger than ten minutes (and reservations of
plain uploads younger than an hour) may still be in flight and are not
counted; --server-stopped says nothing is, so everything counts.
It reads the same environment as the server (DATA_DIR, DATABASE_URL, STORAGE_DIR).`;

/** `npm run doctor`: exit 0 when the store is consistent, 1 when problems are (left), 2 when it cannot check. */
async function main(): Promise<number> {
  const args = new Set(process.argv.slice(2));
  if (args.has('--help') || args.has('-h')) {
    console.log(USAGE);
    return 0;
  }
  const unknown = [...args].filter((arg) => !OPTIONS.includes(arg));
  if (unknown.length) {
    console.error(`Unknown option: ${unknown.join(' ')}\n\n${USAGE}`);
    return 2;
  }
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    return 2;
  }
  // Opening a missing SQLite file would create an empty one: say so instead.
  if (config.database.dialect === 'sqlite' && !fs.existsSync(config.database.file)) {
    console.error(`No database at ${config.database.file}: check DATA_DIR or DATABASE_URL.`);
    return 2;
  }
  const db = createDb(config.database);
  try {
    const pending = await pendingMigrations(db.kysely);
    if (pending.length) {
      console.error(`The database is not up to date (${pending.length} migration(s) to run): start the server once, then run the doctor.`);
      return 2;
    }
    const where = config.database.dialect === 'sqlite' ? `SQLite at ${config.database.file}` : 'PostgreSQL';
    const bytes = config.storage.driver === 's3' ? `the S3 bucket ${config.storage.s3.bucket}` : config.storageDir;
    console.log(`Checking ${where} against ${bytes}${args.has('--repair') ? ' (repairing what is safe)' : ' (read-only)'}…`);
    return await runDoctor(
      createStoreChecks(db, config.storageDir, createDisks(config.storage, config.storageDir).drive),
      { repair: args.has('--repair'), checksums: !args.has('--skip-checksums'), serverStopped: args.has('--server-stopped') },
      (text) => console.log(text),
    );
  } finally {
    await db.destroy();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(2);
  },
);
