import { debianBinary } from '../../peers/debian.js';

/** A Debian tool the protocol tests run against the app (litmus, rclone), or null so the test can skip saying why. */
export function debianTool(binary: string, pkg: string): string | null {
  return debianBinary({ binary, pkg });
}
