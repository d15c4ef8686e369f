/**
 * What the store checks (start-up recovery, housekeeping, `npm run doctor`)
 * find: one inconsistency each, said plainly for an operator, with the fix
 * when one is safe (null when only a person can decide, e.g. bytes missing).
 */
export type CheckName =
  | 'database'
  | 'missing-bytes'
  | 'unreferenced-bytes'
  | 'size'
  | 'checksum'
  | 'folder-size'
  | 'temporary-file'
  | 'empty-folder'
  | 'reservation-without-upload'
  | 'upload-without-reservation'
  | 'unfinished-finish'
  | 'empty-upload';

export interface Finding {
  check: CheckName;
  /** What it is about: an entry, a storage key, an upload id. */
  subject: string;
  detail: string;
  fix: (() => Promise<void>) | null;
}

/** How many findings of each check a list holds (for logs and summaries). */
export function countByCheck(findings: Finding[]): Partial<Record<CheckName, number>> {
  const counts: Partial<Record<CheckName, number>> = {};
  for (const finding of findings) counts[finding.check] = (counts[finding.check] ?? 0) + 1;
  return counts;
}
