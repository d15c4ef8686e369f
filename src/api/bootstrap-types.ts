import type { components } from './schema';

// The bootstrap wire shape, derived from the server's OpenAPI document
// (`npm run api:generate`). Only where the generated type is open (settings
// is `{base_url, registration} & Record<string, unknown>`) do we narrow it to
// the keys the app reads; the server sends every setting with its default.
type Schemas = components['schemas'];
type GeneratedBootstrap = Schemas['Bootstrap'];

export type User = Schemas['User'];
export type Permission = User['permissions'][number];
export type Restriction = Permission['restrictions'][number];
export type Role = User['roles'][number];
export type Theme = Schemas['Theme'];
export type Menu = Schemas['Menu'];
export type MenuItem = Menu['items'][number];
export type Localization = Schemas['LocalizationSummary'];
export type AccessToken = Schemas['AccessToken'];
/** A registration policy: an id plus link fields, like a menu item. */
export type Policy = GeneratedBootstrap['registration']['policies'][number];
export type LinkTarget = Policy;
export type Branding = GeneratedBootstrap['branding'];

export type Settings = GeneratedBootstrap['settings'] & {
  site: { marketing_url: string };
  uploads: Record<string, unknown>;
  dates: { default_timezone: string; format: string };
  themes: { user_change: boolean; default_id: number | null };
  /** Absent in bootstrap data persisted by a release before custom code. */
  custom_code?: { css: string; html: string };
  /** The branding.* settings; the app reads the top-level `branding`, the appearance editor previews through this. */
  branding?: Partial<Branding>;
  cookie_notice: {
    enable: boolean;
    position: 'top' | 'bottom';
    button: (Omit<LinkTarget, 'id'> & { id?: string }) | null;
  };
  i18n: { enable: boolean; default_localization: string };
  api: { integrated: boolean };
  require_email_confirmation: boolean;
  auth: { profile_link: string };
};

export type DemoCredentials = NonNullable<GeneratedBootstrap['demo']['credentials']>;

export interface Bootstrap extends Omit<GeneratedBootstrap, 'settings'> {
  settings: Settings;
}
