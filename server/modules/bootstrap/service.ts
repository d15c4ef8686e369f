import type { Kysely } from 'kysely';
import { resolveSiteUrl } from '../settings/site-url.js';
import type { Database } from '../../db/types.js';
import { sameSitePath } from '../../../common/same-site-path.js';
import type { LocalizationsService } from '../localizations/service.js';
import { linkAction } from '../menus/schemas.js';
import { siteThemes } from '../themes/repository.js';
import { visibleMenus, type Menu } from '../menus/service.js';
import type { SettingValue } from '../settings/defaults.js';
import { nestSettings, type SettingsService } from '../settings/service.js';
import { demoCredentials } from '../setup/demo.js';
import { displayName, presentUser } from '../users/presenter.js';
import type { UserWithAccess, UsersRepository } from '../users/repository.js';
import { userById } from '../users/accounts.repository.js';

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
    /** APP_URL: the site's address unless an admin set `site.url`. */
    private readonly appUrl: string,
    private readonly extra: {
      /** The stored menus; each visitor gets only the items they may see (spec §6). */
      menus(): Promise<Menu[]>;
      /** The user's unread notifications (the bell's badge). */
      unreadNotifications(userId: number): Promise<number>;
      /** The user's subscriptions with their valid flag (spec §6 subscribed). */
      subscriptions(userId: number): Promise<{ id: number; valid: boolean }[]>;
      /** Uploads go straight to the S3 bucket (STORAGE_DRIVER=s3 with S3_DIRECT_UPLOAD). */
      directS3Uploads: boolean;
      /** Switched on and Stripe's keys configured. */
      billingEnabled(): Promise<boolean>;
      /** The database's data version (`Db.version`): what is the same for every caller is kept while it holds. */
      version(): number;
    },
  ) {}

  private site: { version: number; parts: Promise<SiteParts>; lines: Map<number, Promise<Record<string, string>>> } | null = null;

  /**
   * What every caller shares — settings, guest role, themes, menus, the
   * languages and their lines — read once per data version. Any write moves
   * the version on, so an admin's edit shows on the next request; between
   * writes a signed-in bootstrap reads only the user's own counts.
   */
  private shared() {
    const version = this.extra.version();
    if (this.site?.version !== version) {
      const parts = this.loadSite();
      // A failed read is not kept: the next request tries again.
      parts.catch(() => {
        if (this.site?.parts === parts) this.site = null;
      });
      this.site = { version, parts, lines: new Map() };
    }
    return this.site;
  }

  private async loadSite(): Promise<SiteParts> {
    const flat = await this.settings.all();
    const [guestRole, themes, menus, localizations, billingEnabled] = await Promise.all([
      this.users.guestRole(),
      this.themes(flat['themes.default_id']),
      this.extra.menus(),
      this.localizations.list(),
      this.extra.billingEnabled(),
    ]);
    return { flat, nested: nestSettings(flat), guestRole, themes, menus, localizations, billingEnabled };
  }

  private linesOf(id: number): Promise<Record<string, string>> {
    const site = this.shared();
    let lines = site.lines.get(id);
    if (!lines) {
      lines = this.localizations.lines(id);
      site.lines.set(id, lines);
    }
    return lines;
  }

  /** `impersonatorId`: the admin who signed in as this user (the app marks every screen and offers the way back). */
  async build(user: UserWithAccess | null, visitorLanguage: string | null, impersonatorId: number | null = null, twoFactorSetup = false) {
    const site = await this.shared().parts;
    const flat = site.flat;
    const s = (key: string): SettingValue => flat[key] ?? null;
    const bool = (key: string): boolean => s(key) === true;
    const str = (key: string): string => {
      const v = s(key);
      return typeof v === 'string' ? v : '';
    };

    const { guestRole, themes, localizations, nested } = site;
    const menus = visibleMenus(site.menus, user ?? { roles: [], permissions: guestRole.permissions });
    const candidates = [user?.language, visitorLanguage, str('i18n.default_localization')];
    const active = candidates.map((c) => c && localizations.find((loc) => loc.language === c)).find(Boolean) || localizations[0];
    const lines = active ? await this.linesOf(active.id) : {};

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
        uploads: { ...uploadsOf(nested), direct_s3: this.extra.directS3Uploads },
        base_url: resolveSiteUrl(flat['site.url'], this.appUrl),
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
      billing: { enable: site.billingEnabled },
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
      two_factor_setup: user === null && twoFactorSetup,
    };
  }

  private async impersonator(id: number) {
    const row = await userById(this.db, id);
    return row ? { id: row.id, email: row.email, display_name: displayName(row) } : null;
  }

  async themes(defaultId: SettingValue | undefined) {
    const all = await siteThemes(this.db);
    const chosen = all.find((t) => typeof defaultId === 'number' && t.id === defaultId) ?? all.find((t) => t.default_light) ?? all[0];
    return { all, selectedThemeId: chosen?.id ?? null };
  }
}

interface SiteParts {
  flat: Awaited<ReturnType<SettingsService['all']>>;
  nested: ReturnType<typeof nestSettings>;
  guestRole: Awaited<ReturnType<UsersRepository['guestRole']>>;
  themes: Awaited<ReturnType<BootstrapService['themes']>>;
  menus: Menu[];
  localizations: Awaited<ReturnType<LocalizationsService['list']>>;
  billingEnabled: boolean;
}

export type Bootstrap = Awaited<ReturnType<BootstrapService['build']>>;

function parsePolicies(value: SettingValue): { id: string; label: string; action: string; type: 'route' | 'link' }[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry) => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return [];
    const { id, label, action } = entry;
    if (typeof id !== 'string' || typeof label !== 'string') return [];
    // Served as a browser reads it (a policy saved before that check may hold `/<TAB>/host`); the kind follows the address.
    const target = typeof action === 'string' ? linkAction(action) : null;
    if (target === null) return [{ id, label, action: '', type: 'route' as const }];
    return [{ id, label, action: target, type: sameSitePath(target) === null ? ('link' as const) : ('route' as const) }];
  });
}

function uploadsOf(nested: Record<string, SettingValue>): Record<string, SettingValue> {
  const uploads = nested.uploads;
  return typeof uploads === 'object' && uploads !== null && !Array.isArray(uploads) ? uploads : {};
}
