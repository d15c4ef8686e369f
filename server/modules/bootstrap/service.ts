import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { Database } from '../../db/types.js';
import { parseJson } from '../../lib/json.js';
import type { LocalizationsService } from '../localizations/service.js';
import type { MenuItemSeed } from '../menus/defaults.js';
import type { SettingValue } from '../settings/defaults.js';
import { nestSettings, type SettingsService } from '../settings/service.js';
import { demoCredentials } from '../setup/demo.js';
import { displayName, presentUser } from '../users/presenter.js';
import type { UserWithAccess, UsersRepository } from '../users/repository.js';

export const APP_VERSION = '4.02';

/**
 * Everything the browser app needs before its first screen (spec §3
 * "Bootstrap data"), read from the database and settings.
 */
export class BootstrapService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly settings: SettingsService,
    private readonly users: UsersRepository,
    private readonly localizations: LocalizationsService,
    private readonly config: Config,
    private readonly extra: {
      /** The user's unread notifications (the bell's badge). */
      unreadNotifications(userId: number): Promise<number>;
      /** The user's subscriptions with their valid flag (spec §6 subscribed). */
      subscriptions(userId: number): Promise<{ id: number; valid: boolean }[]>;
      /** Switched on and Stripe's keys configured. */
      billingEnabled(): Promise<boolean>;
    },
  ) {}

  /** `impersonatorId`: the admin who signed in as this user (the app marks every screen and offers the way back). */
  async build(user: UserWithAccess | null, visitorLanguage: string | null, impersonatorId: number | null = null) {
    const flat = await this.settings.all();
    const s = (key: string): SettingValue => flat[key] ?? null;
    const bool = (key: string): boolean => s(key) === true;
    const str = (key: string): string => {
      const v = s(key);
      return typeof v === 'string' ? v : '';
    };

    const [guestRole, themes, menus, localizations] = await Promise.all([
      this.users.guestRole(),
      this.themes(flat['themes.default_id']),
      this.menus(),
      this.localizations.list(),
    ]);
    const active = await this.localizations.resolve([user?.language, visitorLanguage, str('i18n.default_localization')]);
    const lines = active ? await this.localizations.lines(active.id) : {};

    const nested = nestSettings(flat);
    const demoMode = str('demo.loginPageDefaults') === 'randomAccount' ? ('randomAccount' as const) : ('singleAccount' as const);
    return {
      user: user
        ? presentUser(user, { unreadNotifications: await this.extra.unreadNotifications(user.id), subscriptions: await this.extra.subscriptions(user.id) })
        : null,
      guest_role: guestRole,
      themes,
      settings: {
        ...nested,
        // Not a setting: the deployment decides (STORAGE_DRIVER=s3 with S3_DIRECT_UPLOAD), and the upload queue picks its path by it.
        uploads: { ...uploadsOf(nested), direct_s3: this.config.storage.driver === 's3' && this.config.storage.directUpload },
        base_url: this.config.appUrl,
        registration: { disable: bool('registration.disable') },
      },
      branding: {
        site_name: str('branding.site_name'),
        logo_light: str('branding.logo_light'),
        logo_dark: str('branding.logo_dark'),
        logo_light_mobile: str('branding.logo_light_mobile'),
        logo_dark_mobile: str('branding.logo_dark_mobile'),
        favicon: str('branding.favicon'),
      },
      i18n: { language: active?.language ?? 'en', lines },
      localizations,
      menus,
      registration: {
        disable: bool('registration.disable'),
        policies: parsePolicies(s('registration.policies')),
      },
      recaptcha: {
        site_key: str('recaptcha.site_key'),
        enable: {
          register: bool('recaptcha.enable.register'),
          contact: bool('recaptcha.enable.contact'),
          link_creation: bool('recaptcha.enable.link_creation'),
        },
      },
      notifications: {
        integrated: bool('notifications.integrated'),
        subscriptions: { integrated: bool('notifications.subscriptions.integrated') },
      },
      billing: { enable: await this.extra.billingEnabled() },
      social: {
        google: { enable: bool('social.google.enable') },
        facebook: { enable: bool('social.facebook.enable') },
        twitter: { enable: bool('social.twitter.enable') },
      },
      site: { demo: bool('site.demo') },
      demo: {
        loginPageDefaults: demoMode,
        // Only a demo site hands out sign-in details; they pre-fill the login form (spec §2 "Sign-in").
        credentials: bool('site.demo') ? demoCredentials(demoMode) : null,
      },
      app_version: APP_VERSION,
      impersonator: user && impersonatorId ? await this.impersonator(impersonatorId) : null,
    };
  }

  private async impersonator(id: number) {
    const row = await this.db.selectFrom('users').select(['id', 'email', 'first_name', 'last_name']).where('id', '=', id).executeTakeFirst();
    return row ? { id: row.id, email: row.email, display_name: displayName(row) } : null;
  }

  private async themes(defaultId: SettingValue | undefined) {
    const rows = await this.db.selectFrom('themes').selectAll().where('user_id', 'is', null).orderBy('id').execute();
    const all = rows.map((row) => ({
      id: row.id,
      name: row.name,
      is_dark: row.is_dark === 1,
      default_light: row.default_light === 1,
      default_dark: row.default_dark === 1,
      colors: parseJson<Record<string, string>>(row.colors, {}),
    }));
    const chosen = all.find((t) => typeof defaultId === 'number' && t.id === defaultId) ?? all.find((t) => t.default_light) ?? all[0];
    return { all, selectedThemeId: chosen?.id ?? null };
  }

  private async menus() {
    const rows = await this.db.selectFrom('menus').selectAll().orderBy('id').execute();
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      positions: parseJson<string[]>(row.positions, []),
      items: parseJson<MenuItemSeed[]>(row.items, []),
    }));
  }
}

export type Bootstrap = Awaited<ReturnType<BootstrapService['build']>>;

function parsePolicies(value: SettingValue): { id: string; label: string; action: string; type: 'route' | 'link' }[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry) => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return [];
    const { id, label, action, type } = entry;
    if (typeof id !== 'string' || typeof label !== 'string') return [];
    return [{ id, label, action: typeof action === 'string' ? action : '', type: type === 'link' ? ('link' as const) : ('route' as const) }];
  });
}

function uploadsOf(nested: Record<string, SettingValue>): Record<string, SettingValue> {
  const uploads = nested.uploads;
  return typeof uploads === 'object' && uploads !== null && !Array.isArray(uploads) ? uploads : {};
}
