import type { Finding } from '../lib/findings.js';

/** The checks of the store, as the jobs see them (built in upkeep.ts). */
export interface StoreChecks {
  uploads: {
    findings(window: { before: Date; staleBefore: Date; atStart: boolean }): Promise<Finding[]>;
  };
  storage: {
    leftovers(before: Date): Promise<Finding[]>;
    unreferenced(before: Date, keep?: ReadonlySet<string>): Promise<Finding[]>;
    entries(options: { checksums: boolean }): Promise<Finding[]>;
    folderSizes(): Promise<Finding[]>;
    /** Whether an entry points at bytes under this storage folder. */
    committedUnder(prefix: string): Promise<boolean>;
  };
  quota: {
    list(): Promise<{ key: string; kind: string }[]>;
    oldestInFlight(): Promise<string | null>;
  };
  /** The database's own check of its files (see db/integrity.ts). */
  database(): Promise<string[]>;
}

/**
 * Storage folders of finishes in progress, and of direct uploads to S3 (their
 * bytes arrive in the store before they are an entry): kept until committed,
 * aborted or expired.
 */
export async function finishingKeys(checks: StoreChecks): Promise<Set<string>> {
  return new Set((await checks.quota.list()).filter((r) => r.kind === 'finishing' || r.kind === 's3').map((r) => r.key));
}

/** Applies every fix; answers the findings that had none (or whose fix failed). */
export async function applyFixes(findings: Finding[], onError: (finding: Finding, error: unknown) => void = () => undefined): Promise<Finding[]> {
  const left: Finding[] = [];
  for (const finding of findings) {
    if (!finding.fix) {
      left.push(finding);
      continue;
    }
    try {
      await finding.fix();
    } catch (error) {
      onError(finding, error);
      left.push(finding);
    }
  }
  return left;
}
