import fs from 'node:fs/promises';
import type { Db } from '../../db/index.js';

export interface Check {
  status: 'ok' | 'error';
  message?: string;
}

/**
 * Whether the database answers and the storage folder is writable. The
 * answer is public, so it says what failed but not why (paths, driver
 * errors); the why goes to the log.
 */
export class HealthService {
  constructor(
    private readonly db: Db,
    private readonly storageDir: string,
  ) {}

  async check(log: { warn(obj: object, msg: string): void }) {
    const database = await probe('The database does not answer.', () => this.db.ping(), log);
    const storage = await probe(
      'The storage folder is not writable.',
      async () => {
        await fs.mkdir(this.storageDir, { recursive: true });
        await fs.access(this.storageDir, fs.constants.W_OK);
      },
      log,
    );
    const status: Check['status'] = database.status === 'ok' && storage.status === 'ok' ? 'ok' : 'error';
    return { status, database: { ...database, dialect: this.db.dialect }, storage };
  }
}

async function probe(message: string, fn: () => Promise<void>, log: { warn(obj: object, msg: string): void }): Promise<Check> {
  try {
    await fn();
    return { status: 'ok' };
  } catch (error) {
    log.warn({ err: error }, message);
    return { status: 'error', message };
  }
}
