import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminActivityRoutes } from './activity/routes.js';
import { adminRoleRoutes } from './roles/routes.js';
import { adminSettingsRoutes } from './settings/routes.js';
import { adminUserRoutes } from './users/routes.js';
import { adminFileRoutes } from './files/routes.js';
import { adminDashboardRoutes } from './dashboard/routes.js';
import { adminHealthRoutes } from './health/routes.js';
import { adminWorkspaceRoutes } from './workspaces/routes.js';
import { adminPlanRoutes } from './plans/routes.js';
import { adminSubscriptionRoutes } from './subscriptions/routes.js';
import { adminLocalizationRoutes } from './localizations/routes.js';
import { adminThemeRoutes } from './themes/routes.js';
import { adminAppearanceRoutes } from './appearance/routes.js';
import { adminCustomPageRoutes } from './custom-pages/routes.js';
import { adminMenuRoutes } from './menus/routes.js';
import type { DriveFiles } from '../drive/files.js';
import type { Admin } from './build.js';

/** Each section's routes take their own service from here (Pick<Admin, …>); support downloads stream the drive's bytes. */
export type AdminRoutesDeps = Admin & { storedFiles: DriveFiles };

/** Every admin call, under /api/v1/admin; each route names the permission it needs (`admin` grants all). */
export const adminRoutes: FastifyPluginAsyncZod<AdminRoutesDeps> = async (app, deps) => {
  await app.register(adminDashboardRoutes, deps);
  await app.register(adminHealthRoutes, deps);
  await app.register(adminUserRoutes, deps);
  await app.register(adminRoleRoutes, deps);
  await app.register(adminSettingsRoutes, deps);
  await app.register(adminActivityRoutes, deps);
  await app.register(adminFileRoutes, deps);
  await app.register(adminWorkspaceRoutes, deps);
  await app.register(adminPlanRoutes, deps);
  await app.register(adminSubscriptionRoutes, deps);
  await app.register(adminLocalizationRoutes, deps);
  await app.register(adminThemeRoutes, deps);
  await app.register(adminAppearanceRoutes, deps);
  await app.register(adminCustomPageRoutes, deps);
  await app.register(adminMenuRoutes, deps);
};
