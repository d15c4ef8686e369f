import type { Finding } from '../lib/findings.js';
import { IN_FLIGHT_GRACE_MS, leftoverCutoff, STALE_RESERVATION_MS } from '../lib/in-flight.js';
import { applyFixes, finishingKeys, type StoreChecks } from './store-checks.js';

export interface DoctorOptions {
  repair: boolean;
  /** Read every file for its sha256 (the slow part on a large store). */
  checksums: boolean;
  /** The server is known to be stopped: nothing is in flight, so recent leftovers count too. */
  serverStopped?: boolean;
}

/**
 * Every check of the database against the disk, on a running or a stopped
 * instance: what may still be in flight on a running one is left out (see
 * lib/in-flight.ts). Ordered so that fixes applied in turn build on each
 * other: reservations, then entries (a corrected size moves its folders),
 * then folder roll-ups, then stray bytes and leftovers.
 */
export async function examine(checks: StoreChecks, options: Pick<DoctorOptions, 'checksums' | 'serverStopped'>): Promise<Finding[]> {
  const now = new Date();
  const stopped = options.serverStopped ?? false;
  const database: Finding[] = (await checks.database()).map((line) => ({ check: 'database', subject: 'database', detail: line, fix: null }));
  const uploads = await checks.uploads.findings({
    before: stopped ? now : new Date(now.getTime() - IN_FLIGHT_GRACE_MS),
    staleBefore: stopped ? now : new Date(now.getTime() - STALE_RESERVATION_MS),
    atStart: false,
  });
  const entries = await checks.storage.entries(options);
  const folders = await checks.storage.folderSizes();
  const before = stopped ? now : leftoverCutoff(now, await checks.quota.oldestInFlight());
  const objects = await checks.storage.unreferenced(before, await finishingKeys(checks));
  const leftovers = await checks.storage.leftovers(before);
  return [...database, ...uploads, ...entries, ...folders, ...objects, ...leftovers];
}

const line = (finding: Finding) => `  ${finding.check.padEnd(27)} ${finding.subject}: ${finding.detail}${finding.fix ? '' : ' [not repaired automatically]'}`;

/**
 * `npm run doctor`: prints what it finds; with `repair`, applies the safe
 * fixes and checks again. Answers the exit code: 0 when nothing is (left)
 * wrong, 1 otherwise.
 */
export async function runDoctor(checks: StoreChecks, options: DoctorOptions, print: (text: string) => void): Promise<number> {
  let findings = await examine(checks, options);
  if (!findings.length) {
    print('No problems found: the database and the storage agree.');
    return 0;
  }
  print(`${findings.length} problem(s) found:`);
  for (const finding of findings) print(line(finding));
  if (!options.repair) {
    const fixable = findings.filter((f) => f.fix).length;
    print(fixable ? `${fixable} of them can be repaired safely: run again with --repair.` : 'None of them can be repaired automatically.');
    return 1;
  }
  await applyFixes(findings, (finding, error) => print(`  could not repair ${finding.subject}: ${error instanceof Error ? error.message : String(error)}`));
  findings = await examine(checks, options);
  if (!findings.length) {
    print('Repaired: the database and the storage agree now.');
    return 0;
  }
  print(`After repair, ${findings.length} problem(s) remain:`);
  for (const finding of findings) print(line(finding));
  return 1;
}
