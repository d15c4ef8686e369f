import { execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const BIN_DIRS = ['/usr/bin', '/usr/sbin', '/usr/local/bin', '/usr/local/sbin'];

interface DebianPackage {
  /** The program the package installs (looked for in the usual bin folders). */
  binary: string;
  pkg: string;
  /** Leave out recommended packages (LibreOffice's pull in most of a desktop). */
  noRecommends?: boolean;
  /** A daemon the package starts on install (nginx, apache2 on port 80): the tests run their own. */
  stopsService?: string;
}

/**
 * A Debian package the tests run against (litmus, rclone, LibreOffice, Apache, nginx): its
 * binary's path, installed with apt-get when missing and we are root (as CI is), else null so
 * the caller can skip or say why. `npm test` installs them up front; this covers a focused run.
 * Both dialects' suites may get here at once: one installs under the lock while the other waits,
 * then finds the binary.
 */
export function debianBinary({ binary, pkg, noRecommends = false, stopsService }: DebianPackage): string | null {
  const where = () => BIN_DIRS.map((dir) => path.join(dir, binary)).find((file) => fs.existsSync(file)) ?? null;
  const found = where();
  if (found || process.getuid?.() !== 0) return found;
  const flags = noRecommends ? '-y -qq --no-install-recommends' : '-y -qq';
  const install = `[ -x /usr/bin/${binary} ] || [ -x /usr/sbin/${binary} ] || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install ${flags} ${pkg} >/dev/null)`;
  execFileSync('flock', [path.join(os.tmpdir(), 'drive-apt-install.lock'), 'sh', '-c', install], { stdio: 'inherit', timeout: 15 * 60_000 });
  if (stopsService) {
    try {
      execFileSync('service', [stopsService, 'stop'], { stdio: 'ignore' });
    } catch {
      // No init system here: nothing was started.
    }
  }
  return where();
}

/** As debianBinary, for a caller that cannot go on without it. */
export function requireDebianBinary(wanted: DebianPackage): string {
  const found = debianBinary(wanted);
  if (!found) throw new Error(`${wanted.binary} is missing: run 'sudo apt-get install -y ${wanted.pkg}' once.`);
  return found;
}

/** A reference server started by a bench: answers once `probe` does, stopped by `stop`. */
export async function answering(child: ChildProcess, probe: () => Promise<unknown>): Promise<{ stop: () => Promise<void> }> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    try {
      await probe();
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return {
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}
