/**
 * How long versions stay (issue 34), as a pure plan over a file's versions.
 *
 * Nextcloud's "auto" steps (apps/files_versions Storage.php). By the age of
 * a version (now − when its bytes were written), at most one version is kept
 * per:
 *
 * | age            | one per         |
 * | -------------- | --------------- |
 * | under 10 s     | 2 s             |
 * | under 1 min    | 10 s            |
 * | under 1 h      | 1 min           |
 * | under 24 h     | 1 h             |
 * | under 30 days  | 1 day           |
 * | 30 days and up | 1 week          |
 *
 * and none is older than the site's `versions.max_days` (default 365: a year
 * of weekly points, Dropbox's longest plan; 0 lifts the cap). Why these: the
 * editor saves every 50 s while someone types, so an hour of work is up to 72
 * versions; the steps keep what people reach for (a minute ago, this morning,
 * last Tuesday) at a bounded cost — about 60 + 24 + 30 + 48 ≈ 160 versions for
 * a file edited all year, whatever the number of saves. Space pressure is the
 * other limit: versions never push their owner over quota (QuotaService.settle).
 */
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
const WEEK = 7 * DAY;

export const RETENTION_STEPS: readonly { below: number; step: number }[] = [
  { below: 10 * SECOND, step: 2 * SECOND },
  { below: MINUTE, step: 10 * SECOND },
  { below: HOUR, step: MINUTE },
  { below: DAY, step: HOUR },
  { below: 30 * DAY, step: DAY },
  { below: Infinity, step: WEEK },
];

export const stepFor = (age: number): number => RETENTION_STEPS.find((s) => age < s.below)!.step;

export interface Dated {
  id: number;
  /** When the version's bytes were written (ISO). */
  createdAt: string;
}

/**
 * The versions to delete now. Time is cut into slots the length of each
 * version's step (by the clock, so a slot stays the same slot as its versions
 * age); a slot keeps its newest version and loses the rest, and every version
 * past `maxDays` goes (0: no cap). As versions age their slots widen and
 * merge, so each day ends up with its last version, then each week: thinning
 * that is the same whenever and however often it runs.
 */
export function expiredVersions(versions: readonly Dated[], now: number, maxDays: number): number[] {
  const sorted = [...versions].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || b.id - a.id);
  const expired: number[] = [];
  const filled = new Set<string>();
  for (const version of sorted) {
    const at = Date.parse(version.createdAt);
    const age = Math.max(0, now - at);
    if (maxDays > 0 && age > maxDays * DAY) {
      expired.push(version.id);
      continue;
    }
    const step = stepFor(age);
    const slot = `${step}:${Math.floor(at / step)}`;
    if (filled.has(slot)) expired.push(version.id);
    else filled.add(slot);
  }
  return expired;
}
