import { API_PREFIX, moduleRoutes } from '../../lib/routes.js';
import { buildAdmin, type AdminDeps } from './build.js';
import { adminRoutes } from './routes.js';

export type { Admin, AdminDeps } from './build.js';

/** The admin area's services (issue 17), built once per app in services.ts, and its routes under /api/v1/admin. */
export function createAdmin(deps: AdminDeps) {
  const admin = buildAdmin(deps);
  return { ...admin, routes: moduleRoutes(`${API_PREFIX}/admin`, adminRoutes, { ...admin, storedFiles: deps.drive.files }) };
}
