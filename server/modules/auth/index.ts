import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import type { RateLimiter } from '../../lib/rate-limiter.js';
import { API_PREFIX, moduleRoutes } from '../../lib/routes.js';
import type { MailMessage } from '../../mail/mailer.js';
import type { BootstrapService } from '../bootstrap/service.js';
import type { SettingsService } from '../settings/service.js';
import type { SiteUrl } from '../settings/site-url.js';
import type { UsersRepository } from '../users/repository.js';
import type { AccessCache } from './access-cache.js';
import { AccessTokensService } from './access-tokens.js';
import { PasswordChecks } from './password-checks.js';
import { RecoveryService } from './recovery.js';
import { RegistrationService } from './registration.js';
import { authRoutes } from './routes.js';
import { AuthService } from './service.js';
import { SessionsService } from './sessions.js';
import { accessTokenRoutes } from './tokens-routes.js';
import { createPasskeys } from './two-factor/index.js';
import { twoFactorRoutes } from './two-factor/routes.js';
import { TwoFactorService } from './two-factor/service.js';
import { UserTokensService } from './user-tokens.js';

export interface AuthModuleDeps {
  db: Kysely<Database>;
  accessCache: AccessCache;
  users: UsersRepository;
  settings: SettingsService;
  rateLimiter: RateLimiter;
  /** Queues a message (the 'mail' job): mail a request causes never goes out inside the request. */
  sendMail(message: MailMessage): Promise<void>;
  siteUrl: SiteUrl;
  /** The configured address (APP_URL): passkeys' relying party when the site's own setting is empty. */
  appUrl: string;
  bootstrap: Pick<BootstrapService, 'build'>;
}

/** Sessions, sign-in, registration, recovery and personal access tokens. */
export function createAuth(deps: AuthModuleDeps) {
  const { db, users, settings, rateLimiter, bootstrap } = deps;
  const sessions = new SessionsService(db, deps.accessCache);
  const accessTokens = new AccessTokensService(db, deps.accessCache);
  const userTokens = new UserTokensService(db);
  const passwordChecks = new PasswordChecks(rateLimiter);
  const siteName = () => recovery.siteName();
  const passkeys = createPasskeys(db, settings, deps.appUrl, siteName);
  const twoFactor = new TwoFactorService(db, passwordChecks, siteName, passkeys);
  const auth = new AuthService(users, passwordChecks, sessions, twoFactor);
  const recovery = new RecoveryService(db, users, userTokens, sessions, settings, deps.sendMail, deps.siteUrl);
  const registration = new RegistrationService(db, users, settings);
  return {
    sessions,
    accessTokens,
    userTokens,
    passwordChecks,
    auth,
    twoFactor,
    recovery,
    registration,
    routes: moduleRoutes('/auth', authRoutes, { auth, users, bootstrap, settings, sessions, registration, recovery, rateLimiter, twoFactor }),
    /** The second step of a sign-in, the authenticator app and passkeys (after /auth, where the OpenAPI document lists them). */
    twoFactorRoutes: twoFactorRoutes({ twoFactor, passkeys, auth, users, bootstrap }),
    /** Mounted after the account's routes, where the OpenAPI document lists them. */
    tokenRoutes: moduleRoutes(API_PREFIX, accessTokenRoutes, { accessTokens }),
  };
}

export type Auth = ReturnType<typeof createAuth>;
