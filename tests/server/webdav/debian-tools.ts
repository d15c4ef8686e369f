import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A Debian tool the protocol tests run against the app (litmus, rclone): installed with apt-get
 * when missing and we are root (as CI is), else null so the test can skip saying why. `npm test`
 * installs them up front; this covers a focused run. Both dialects' suites may get here at once:
 * one installs under the lock while the other waits, then finds the tool.
 */
export function debianTool(binary: string, pkg: string): string | null {
  const where = () => [`/usr/bin/${binary}`, `/usr/local/bin/${binary}`].find((p) => fs.existsSync(p)) ?? null;
  const found = where();
  if (found || process.getuid?.() !== 0) return found;
  const install = `command -v ${binary} >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${pkg} >/dev/null)`;
  execFileSync('flock', [path.join(os.tmpdir(), 'drive-apt-install.lock'), 'sh', '-c', install], { stdio: 'inherit', timeout: 10 * 60_000 });
  return where();
}
