import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import type { Mailer } from '../../mail/mailer.js';
import type { LocalizationsService } from '../localizations/service.js';
import type { SettingsService } from '../settings/service.js';
import { AdminActivity } from './activity/service.js';
import { AdminDashboardService } from './dashboard/service.js';
import { APP_VERSION } from '../bootstrap/service.js';
import { verifyPassword } from '../auth/passwords.js';
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
import { AdminSubscriptionsService } from './subscriptions/service.js';
import type { CustomPagesRepository } from '../custom-pages/repository.js';
import type { MenusService } from '../menus/service.js';
import { userById } from '../users/accounts.repository.js';
import { AdminCustomPagesService } from './custom-pages/service.js';
import { AdminMenusService } from './menus/service.js';
import type { DriveFiles } from '../drive/files.js';
import { adminHealth, type AdminHealthDeps } from './health/sources.js';

export interface AdminDeps {
  db: Kysely<Database>;
  settings: SettingsService;
  localizations: LocalizationsService;
  themes: ThemesService;
  appearance: AppearanceService;
  brandingFiles: BrandingFiles;
  mailer: Pick<Mailer, 'send' | 'current'>;
  /** What the users section asks of accounts (users/index.ts). */
  account: { forAdmin: AdminUsersDeps };
  auth: { sessions: Pick<SessionsService, 'end' | 'resolve'> };
  /** The facade deletes files for good and finds one for support; a support download streams from `files`. */
  drive: { facade: AdminFilesDeps; files: DriveFiles };
  /** The storage folder, whose disk the dashboard reports on. */
  storageDir: string;
  workspaces: AdminWorkspacesDeps;
  /** Plans and subscriptions: the catalogue here, mirrored at Stripe while its keys are configured. */
  billing: { stripeClient: AdminPlansDeps['stripe']; repo: AdminPlansDeps['catalog'] };
  customPages: { repo: CustomPagesRepository };
  menus: MenusService;
  /** What the Health page probes. */
  health: AdminHealthDeps;
}

/** The admin area's services (without its routes: each section's route file imports this file's types). */
export function buildAdmin(deps: AdminDeps) {
  const activity = new AdminActivity(deps.db);
  const findEmail = async (userId: number) => (await userById(deps.db, userId))?.email ?? null;
  const bootstrapFor = (userId: number | null, language: string | null): Promise<Bootstrap> => deps.account.forAdmin.bootstrapFor(userId, language, null);
  return {
    activity,
    adminUsers: new AdminUsersService(deps.db, activity, deps.account.forAdmin),
    impersonation: new Impersonation(deps.auth.sessions, activity, findEmail, bootstrapFor),
    roles: new AdminRolesService(deps.db, activity, deps.account.forAdmin.confirm, deps.account.forAdmin.twoFactor),
    dashboard: new AdminDashboardService(deps.db, {
      storageDir: deps.storageDir,
      version: APP_VERSION,
      verifyPassword,
      mailConfigured: async () => (await deps.mailer.current()).url !== '',
    }),
    files: new AdminFilesService(deps.db, activity, deps.drive.facade),
    workspaces: new AdminWorkspacesService(deps.db, activity, deps.workspaces),
    plans: new AdminPlansService(deps.db, activity, { stripe: deps.billing.stripeClient, catalog: deps.billing.repo }),
    subscriptions: new AdminSubscriptionsService(deps.db, activity, { stripe: deps.billing.stripeClient, billing: deps.billing.repo }),
    settings: new AdminSettingsService(deps.settings, deps.localizations, deps.mailer, activity),
    localizations: new AdminLocalizationsService(deps.localizations, activity),
    themes: new AdminThemesService(deps.themes, activity),
    appearance: new AdminAppearanceService(deps.appearance, deps.brandingFiles, activity),
    customPages: new AdminCustomPagesService(deps.db, deps.customPages.repo, activity),
    menus: new AdminMenusService(deps.menus, activity),
    health: adminHealth(deps.health),
  };
}

export type Admin = ReturnType<typeof buildAdmin>;
