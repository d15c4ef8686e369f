import type { Config } from './config.js';
import type { Db } from './db/index.js';
import { AccessTokensService } from './modules/auth/access-tokens.js';
import { AuthService } from './modules/auth/service.js';
import { SessionsService } from './modules/auth/sessions.js';
import { BootstrapService } from './modules/bootstrap/service.js';
import { LocalizationsService } from './modules/localizations/service.js';
import { SettingsService } from './modules/settings/service.js';
import { UsersRepository } from './modules/users/repository.js';

/** The services of one app instance. Routes reach them through `app.services`. */
export function createServices(db: Db, config: Config) {
  const kysely = db.kysely;
  const settings = new SettingsService(kysely);
  const users = new UsersRepository(kysely);
  const localizations = new LocalizationsService(kysely);
  const sessions = new SessionsService(kysely);
  const accessTokens = new AccessTokensService(kysely);
  return {
    db,
    config,
    settings,
    users,
    localizations,
    sessions,
    accessTokens,
    auth: new AuthService(kysely, users),
    bootstrap: new BootstrapService(kysely, settings, users, localizations, config),
  };
}

export type Services = ReturnType<typeof createServices>;
