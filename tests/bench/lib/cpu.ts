import fs from 'node:fs/promises';

const TICK_MS = 10;

async function statOf(pid: string): Promise<{ ppid: number; ms: number } | null> {
  try {
    const fields = (await fs.readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
    return { ppid: Number(fields[1]), ms: (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * TICK_MS };
  } catch {
    // Gone between the listing and the read.
    return null;
  }
}

/**
 * User + system CPU time so far of a process and every process below it, in ms
 * (Linux /proc; all threads count, and children that ended and were waited for). Apache serves from child processes, the app
 * from one: summed the same way, the two compare per request, which on shared
 * cores is steadier than requests per second.
 */
export async function treeCpuMs(root: number): Promise<number> {
  const stats = new Map<number, { ppid: number; ms: number }>();
  for (const name of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await statOf(name);
    if (stat) stats.set(Number(name), stat);
  }
  const inTree = (pid: number): boolean => {
    for (let at: number | undefined = pid; at !== undefined && at > 1; at = stats.get(at)?.ppid) if (at === root) return true;
    return false;
  };
  let ms = 0;
  for (const [pid, stat] of stats) if (inTree(pid)) ms += stat.ms;
  return ms;
}
