import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { moduleRoutes } from '../../lib/routes.js';
import type { SignInDeps } from '../auth/sign-in.js';
import type { AuthService } from '../auth/service.js';
import type { SettingsService } from '../settings/service.js';
import type { UsersRepository } from '../users/repository.js';
import { socialRoutes } from './routes.js';
import { SocialAccountsService } from './service.js';

export interface SocialModuleDeps extends SignInDeps {
  db: Kysely<Database>;
  users: UsersRepository;
  settings: SettingsService;
  auth: AuthService;
  /** The configured APP_URL (OAuth redirect addresses, the popup's target origin). */
  appUrl: string;
}

/** Sign-in and account linking with Google and Facebook. */
export function createSocial(deps: SocialModuleDeps) {
  const social = new SocialAccountsService(deps.db, deps.users, deps.settings, deps.auth);
  const { users, settings, auth, bootstrap, appUrl, twoFactor } = deps;
  return { social, routes: moduleRoutes('/secure/auth/social', socialRoutes, { social, users, settings, auth, bootstrap, appUrl, twoFactor }) };
}
