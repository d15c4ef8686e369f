import fs from 'node:fs/promises';
import type { Db } from '../../../db/index.js';
import type { HealthSources } from '../../../observability/health-report.js';
import type { Disk } from '../../../storage/disk.js';

export interface AdminHealthDeps {
  database: Pick<Db, 'dialect' | 'ping' | 'serverVersion'>;
  jobs: { waiting(): Promise<number> };
  storage: { driver: 'local' | 's3'; dir: string; disk: Pick<Disk, 'stat'> };
}

/** What the Health page probes: this process's database and storage, and the job queue. */
export type AdminHealth = Pick<HealthSources, 'database' | 'storage' | 'jobsWaiting'>;

export function adminHealth({ database, jobs, storage }: AdminHealthDeps): AdminHealth {
  return {
    jobsWaiting: () => jobs.waiting(),
    database: { dialect: database.dialect, ping: () => database.ping(), serverVersion: () => database.serverVersion() },
    storage: {
      driver: storage.driver,
      // The bucket answers a HEAD for a key that need not exist; the local folder must be writable.
      probe: async () => {
        if (storage.driver === 's3') await storage.disk.stat('health-probe');
        else {
          await fs.mkdir(storage.dir, { recursive: true });
          await fs.access(storage.dir, fs.constants.W_OK);
        }
      },
    },
  };
}
