import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/**
 * BENCH_DROP_CACHES=1 (as root, on Linux): writes dirty pages out and drops
 * the kernel's page, dentry and inode caches before a bench. Runs that create
 * and delete hundreds of thousands of files leave those caches full, and on
 * this machine a new folder then cost ~420 µs instead of ~40 (issue 37's
 * small PUTs make one each; Apache's rate fell from ~3,300 to ~1,700 PUTs a
 * second over a session of such runs). It affects the whole machine, so it is
 * asked for, never done by default. Says what it did.
 */
export function dropCachesIfAsked(): void {
  if (process.env.BENCH_DROP_CACHES !== '1') return;
  try {
    execFileSync('sync');
    fs.writeFileSync('/proc/sys/vm/drop_caches', '3');
    console.log('(kernel caches dropped: BENCH_DROP_CACHES=1)');
  } catch (error) {
    console.log(`(BENCH_DROP_CACHES=1, but the caches could not be dropped: ${(error as Error).message})`);
  }
}
