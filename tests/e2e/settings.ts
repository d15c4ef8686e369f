import { join } from 'node:path';
import Database from 'better-sqlite3';

// There is no settings API yet, so a spec that needs a setting writes it into
// the run's SQLite database; the server reads settings on every request.
export function setSetting(key: string, value: unknown, isPrivate = false): void {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is set by playwright.config.ts');
  const db = new Database(join(dataDir, 'drive.sqlite'));
  try {
    db.pragma('busy_timeout = 5000');
    db.prepare(
      `INSERT INTO settings (key, value, private, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
    ).run(key, JSON.stringify(value), isPrivate ? 1 : 0, new Date().toISOString());
  } finally {
    db.close();
  }
}
