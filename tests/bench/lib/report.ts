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
