import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import type { Mailer } from '../../mail/mailer.js';
import type { LocalizationsService } from '../localizations/service.js';
import type { SettingsService } from '../settings/service.js';
import { AdminActivity } from './activity/service.js';
import { AdminDashboardService, type DashboardDeps } from './dashboard/service.js';
import { AdminFilesService, type AdminFilesDeps } from './files/service.js';
import { AdminWorkspacesService, type AdminWorkspacesDeps } from './workspaces/service.js';
import { AdminRolesService } from './roles/service.js';
import { AdminSettingsService } from './settings/service.js';
import { Impersonation } from './users/impersonation.js';
import { AdminUsersService, type AdminUsersDeps } from './users/service.js';
import type { Bootstrap } from '../bootstrap/service.js';
import type { ThemesService } from '../themes/service.js';
import type { AppearanceService } from '../appearance/service.js';
import type { BrandingFiles } from '../appearance/branding-files.js';
import { AdminLocalizationsService } from './localizations/service.js';
import { AdminThemesService } from './themes/service.js';
import { AdminAppearanceService } from './appearance/service.js';
import type { SessionsService } from '../auth/sessions.js';
import { AdminPlansService, type AdminPlansDeps } from './plans/service.js';
import { AdminSubscriptionsService, type AdminSubscriptionsDeps } from './subscriptions/service.js';
import type { CustomPagesRepository } from '../custom-pages/repository.js';
import type { MenusService } from '../menus/service.js';
import { userById } from '../users/accounts.repository.js';
import { AdminCustomPagesService } from './custom-pages/service.js';
import { AdminMenusService } from './menus/service.js';
import { adminRoutes } from './routes.js';
import { API_PREFIX, moduleRoutes } from '../../lib/routes.js';
import type { DriveFiles } from '../drive/files.js';

export interface AdminDeps {
  db: Kysely<Database>;
  settings: SettingsService;
  localizations: LocalizationsService;
  themes: ThemesService;
  appearance: AppearanceService;
  brandingFiles: BrandingFiles;
  mailer: Pick<Mailer, 'send' | 'current'>;
  users: AdminUsersDeps;
  sessions: Pick<SessionsService, 'end' | 'resolve'>;
  files: AdminFilesDeps;
  dashboard: Omit<DashboardDeps, 'mailConfigured'>;
  workspaces: AdminWorkspacesDeps;
  plans: AdminPlansDeps;
  subscriptions: AdminSubscriptionsDeps;
  customPages: CustomPagesRepository;
  menus: MenusService;
  /** The drive's bytes, for a file downloaded for support. */
  storedFiles: DriveFiles;
}

/** The admin area's services (issue 17), built once per app in services.ts, and its routes under /api/v1/admin. */
export function createAdmin(deps: AdminDeps) {
  const admin = buildAdmin(deps);
  return { ...admin, routes: moduleRoutes(`${API_PREFIX}/admin`, adminRoutes, { ...admin, storedFiles: deps.storedFiles }) };
}

function buildAdmin(deps: AdminDeps) {
  const activity = new AdminActivity(deps.db);
  const findEmail = async (userId: number) => (await userById(deps.db, userId))?.email ?? null;
  const bootstrapFor = (userId: number | null, language: string | null): Promise<Bootstrap> => deps.users.bootstrapFor(userId, language, null);
  return {
    activity,
    adminUsers: new AdminUsersService(deps.db, activity, deps.users),
    impersonation: new Impersonation(deps.sessions, activity, findEmail, bootstrapFor),
    roles: new AdminRolesService(deps.db, activity, deps.users.confirm),
    dashboard: new AdminDashboardService(deps.db, { ...deps.dashboard, mailConfigured: async () => (await deps.mailer.current()).url !== '' }),
    files: new AdminFilesService(deps.db, activity, deps.files),
    workspaces: new AdminWorkspacesService(deps.db, activity, deps.workspaces),
    plans: new AdminPlansService(deps.db, activity, deps.plans),
    subscriptions: new AdminSubscriptionsService(deps.db, activity, deps.subscriptions),
    settings: new AdminSettingsService(deps.settings, deps.localizations, deps.mailer, activity),
    localizations: new AdminLocalizationsService(deps.localizations, activity),
    themes: new AdminThemesService(deps.themes, activity),
    appearance: new AdminAppearanceService(deps.appearance, deps.brandingFiles, activity),
    customPages: new AdminCustomPagesService(deps.db, deps.customPages, activity),
    menus: new AdminMenusService(deps.menus, activity),
  };
}

export type Admin = ReturnType<typeof buildAdmin>;
