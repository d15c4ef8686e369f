import { versionsOf, deleteVersions, entriesWithVersions } from './versions.repository.js';
import { expiredVersions } from './retention.js';
import type { DriveFiles } from './files.js';
import type { Executor } from './repository.js';
import type { TrashService } from './trash.js';

const PAGE = 200;

/**
 * The scheduler's retention work (the `retention` job, server/jobs/catalog.ts):
 * versions thinned to the steps of retention.ts, and trashed entries deleted
 * forever once their purge time has come. Runs in-process (or once across
 * processes on the shared queue); no outside cron.
 */
export class RetentionPass {
  constructor(
    private readonly db: Executor,
    private readonly files: DriveFiles,
    private readonly trash: TrashService,
    /** The site's `versions.max_days` (0: no cap). */
    private readonly maxDays: () => Promise<number>,
  ) {}

  async run(now: Date = new Date()): Promise<{ versions: number; trash: number }> {
    const versions = await this.thinVersions(now.getTime());
    const trash = await this.trash.purgeExpired(now.toISOString());
    return { versions, trash };
  }

  /** Every file's versions against the steps; answers how many went. */
  async thinVersions(now: number): Promise<number> {
    const maxDays = await this.maxDays();
    let removed = 0;
    for (let afterId = 0; ;) {
      const ids = await entriesWithVersions(this.db, afterId, PAGE);
      if (!ids.length) return removed;
      for (const entryId of ids) {
        const prefixes = await this.db.transaction().execute(async (trx) => {
          const versions = await versionsOf(trx, entryId);
          const expired = expiredVersions(
            versions.map((v) => ({ id: v.id, createdAt: new Date(v.created_at).toISOString() })),
            now,
            maxDays,
          );
          return deleteVersions(trx, expired);
        });
        await this.files.deletePrefixes(prefixes);
        removed += prefixes.length;
      }
      afterId = ids.at(-1)!;
    }
  }
}
