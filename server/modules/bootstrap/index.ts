import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { API_PREFIX, moduleRoutes } from '../../lib/routes.js';
import type { BillingService } from '../billing/service.js';
import type { LocalizationsService } from '../localizations/service.js';
import type { MenusService } from '../menus/service.js';
import type { NotificationsRepository } from '../notifications/repository.js';
import type { SettingsService } from '../settings/service.js';
import type { UsersRepository } from '../users/repository.js';
import { BootstrapJson } from './json.js';
import { bootstrapRoutes } from './routes.js';
import { BootstrapService } from './service.js';

export interface BootstrapModuleDeps {
  db: Kysely<Database>;
  settings: SettingsService;
  users: UsersRepository;
  localizations: LocalizationsService;
  /** APP_URL: the site's address unless an admin set `site.url`. */
  appUrl: string;
  /** Check the JSON against the contract strictly (outside production). */
  checked: boolean;
  menus: Pick<MenusService, 'list'>;
  notifications: Pick<NotificationsRepository, 'unreadCount'>;
  billing: Pick<BillingService, 'subscriptionFlags' | 'enabled'>;
  /** Uploads go straight to the S3 bucket (STORAGE_DRIVER=s3 with S3_DIRECT_UPLOAD). */
  directS3Uploads: boolean;
  /** The database's data version (`Db.version`). */
  version(): number;
}

/** The data the app needs before its first screen, and its checked JSON (strict outside production). */
export function createBootstrap(deps: BootstrapModuleDeps) {
  const { menus, notifications, billing } = deps;
  const bootstrap = new BootstrapService(deps.db, deps.settings, deps.users, deps.localizations, deps.appUrl, {
    menus: () => menus.list(),
    unreadNotifications: (userId) => notifications.unreadCount(userId),
    subscriptions: (userId) => billing.subscriptionFlags(userId),
    billingEnabled: () => billing.enabled(),
    directS3Uploads: deps.directS3Uploads,
    version: deps.version,
  });
  const bootstrapJson = new BootstrapJson(deps.checked);
  return { bootstrap, bootstrapJson, routes: moduleRoutes(API_PREFIX, bootstrapRoutes, { bootstrap, bootstrapJson }) };
}
