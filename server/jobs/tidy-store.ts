import { countByCheck, type Finding } from '../lib/findings.js';
import { IN_FLIGHT_GRACE_MS, leftoverCutoff, STALE_RESERVATION_MS } from '../lib/in-flight.js';
import { applyFixes, finishingKeys, type StoreChecks } from './store-checks.js';

export type TidyMode = 'start' | 'running';

/**
 * What a crash or a cut-off request leaves behind, removed: reservations of
 * uploads that can no longer finish, tus uploads nobody can reach,
 * temporary files, empty folders and bytes no entry points to.
 *
 * At start-up (before listening) nothing of this process is in flight, so
 * everything counts: the server is its storage's only writer (the embedded
 * setup; several processes sharing one database and storage would each need
 * to know the others' uploads first). While running, only what no request
 * could still be writing counts (lib/in-flight.ts).
 */
export async function tidyStore(
  checks: StoreChecks,
  mode: TidyMode,
  log?: { warn(obj: object, msg: string): void },
): Promise<Partial<Record<Finding['check'], number>>> {
  const onError = (finding: Finding, error: unknown) => log?.warn({ err: error, check: finding.check, subject: finding.subject }, 'tidying the store failed');
  const start = mode === 'start';
  const now = new Date();
  const uploads = await checks.uploads.findings({
    before: start ? now : new Date(now.getTime() - IN_FLIGHT_GRACE_MS),
    staleBefore: start ? now : new Date(now.getTime() - STALE_RESERVATION_MS),
    atStart: start,
  });
  await applyFixes(uploads, onError);

  // After the reservations above are settled, so that bytes of a finish that went back to its upload are not counted.
  const before = start ? new Date() : leftoverCutoff(now, await checks.quota.oldestInFlight());
  const objects = await checks.storage.unreferenced(before, await finishingKeys(checks));
  await applyFixes(objects, onError);
  // Now, so that folders emptied just above count as well.
  const leftovers = await checks.storage.leftovers(start ? new Date() : before);
  await applyFixes(leftovers, onError);
  return countByCheck([...uploads, ...objects, ...leftovers]);
}
