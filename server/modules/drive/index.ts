import { API_PREFIX, moduleRoutes } from '../../lib/routes.js';
import { pauseAt, type PausePoint } from '../../lib/test-pause.js';
import { buildDrive, type DriveDeps } from './build.js';
import { driveRoutes } from './routes.js';
import { retentionFrom, spaceLimitsFrom } from './site-rules.js';

export type { Drive, DriveDeps } from './build.js';

/** The drive's services, built once per app (see services.ts), and its routes. */
export function createDrive({ settings, plans, permissionsOf, testPauseAt, ...deps }: DriveDeps & { testPauseAt: PausePoint | null }) {
  const drive = buildDrive({
    ...deps,
    pause: pauseAt(testPauseAt),
    limits: spaceLimitsFrom(settings, plans, permissionsOf),
    retention: retentionFrom(settings, plans),
  });
  return { ...drive, routes: moduleRoutes(API_PREFIX, driveRoutes, { drive, version: deps.db.version }) };
}
