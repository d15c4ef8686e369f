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

/** Every admin call, under /api/v1/admin; each route names the permission it needs (`admin` grants all). */
export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(adminDashboardRoutes);
  await app.register(adminHealthRoutes);
  await app.register(adminUserRoutes);
  await app.register(adminRoleRoutes);
  await app.register(adminSettingsRoutes);
  await app.register(adminActivityRoutes);
  await app.register(adminFileRoutes);
  await app.register(adminWorkspaceRoutes);
  await app.register(adminPlanRoutes);
  await app.register(adminSubscriptionRoutes);
  await app.register(adminLocalizationRoutes);
  await app.register(adminThemeRoutes);
  await app.register(adminAppearanceRoutes);
  await app.register(adminCustomPageRoutes);
  await app.register(adminMenuRoutes);
};
