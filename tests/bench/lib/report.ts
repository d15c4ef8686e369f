import fs from 'node:fs/promises';
import os from 'node:os';

/** `--json FILE` on the command line: where a bench also writes its figures. */
export function jsonTarget(argv = process.argv): string | null {
  const at = argv.indexOf('--json');
  return at >= 0 ? (argv[at + 1] ?? 'bench.json') : null;
}

/** The conditions a figure was taken in: on 2 shared cores the load average says how far to trust it. */
export function conditions() {
  return {
    cpus: os.cpus().length,
    loadAverage: os.loadavg().map((n) => Number(n.toFixed(2))),
    node: process.version,
    database: process.env.DATABASE_URL ? 'postgres' : 'sqlite',
  };
}

export async function writeJson(bench: string, rows: unknown[]): Promise<void> {
  const target = jsonTarget();
  if (!target) return;
  await fs.writeFile(target, JSON.stringify({ bench, at: new Date().toISOString(), ...conditions(), rows }, null, 2));
  console.log(`figures written to ${target}`);
}

/** One of issue 19's targets as a bench measured it: met or not, and when not, why and what would meet it. */
export interface Target {
  target: string;
  measured: string;
  met: boolean;
  /** For a target not met: the measured reason and what would meet it. */
  why?: string;
}

export function printTargets(targets: Target[]): void {
  console.log('\ntargets');
  for (const t of targets) {
    console.log(`  ${t.met ? 'met    ' : 'NOT met'}  ${t.target}: ${t.measured}`);
    if (!t.met && t.why) for (const line of t.why.split('\n')) console.log(`           ${line}`);
  }
}

/** The per-request budget a target ratio leaves on one server core: `ratio` × the bare route's req/s. */
export function budgetMs(ratio: number, bareRps: number): number {
  return 1000 / (ratio * bareRps);
}
