import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

let updated = false;

/**
 * A Debian tool the protocol tests run against the app (litmus, rclone): installed with apt-get
 * when missing and we are root (as CI is), else null so the test can skip saying why.
 */
export function debianTool(binary: string, pkg: string): string | null {
  const found = [`/usr/bin/${binary}`, `/usr/local/bin/${binary}`].find((p) => fs.existsSync(p));
  if (found) return found;
  if (process.getuid?.() !== 0) return null;
  if (!updated) execFileSync('apt-get', ['update'], { stdio: 'ignore' });
  updated = true;
  execFileSync('apt-get', ['install', '-y', pkg], { stdio: 'ignore', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  return fs.existsSync(`/usr/bin/${binary}`) ? `/usr/bin/${binary}` : null;
}
