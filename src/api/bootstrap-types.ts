// The bootstrap wire shape. Hand-written until the server's OpenAPI document
// covers `bootstrap-data`; then these become aliases of the generated schema.
export interface Restriction {
  name: string;
  value: string | number | boolean | null;
}

export interface Permission {
  name: string;
  restrictions: Restriction[];
}

export interface Role {
  id: number;
  name: string;
}

export interface User {
  id: number;
  first_name: string | null;
  last_name: string | null;
  display_name: string | null;
  avatar: string | null;
  email: string | null;
  email2: string | null;
  company: string | null;
  designation: string | null;
  mobile: string | null;
  address: string | null;
  city: string | null;
  country: string | null;
  zipcode: string | null;
  language: string | null;
  timezone: string | null;
  unread_notifications_count: number;
  email_verified_at: string | null;
  created_at: string | null;
  permissions: Permission[];
  roles: Role[];
  subscriptions: { id: number; valid: boolean }[];
}

export interface Theme {
  id: number;
  name: string;
  is_dark: boolean;
  default_light: boolean;
  default_dark: boolean;
  colors: Record<string, string>;
}

export interface LinkTarget {
  id: string;
  label: string;
  action: string;
  type: 'route' | 'link';
}

export interface MenuItem extends LinkTarget {
  target: string | null;
  roles: number[];
  permissions: string[];
}

export interface Menu {
  id: number;
  name: string;
  positions: string[];
  items: MenuItem[];
}

export interface Localization {
  id: number;
  language: string;
  name: string;
}

export interface Settings {
  base_url: string;
  site: { marketing_url: string };
  uploads: Record<string, unknown>;
  dates: { default_timezone: string; format: string };
  themes: { user_change: boolean; default_id: number | null };
  registration: { disable: boolean };
  cookie_notice: {
    enable: boolean;
    position: 'top' | 'bottom';
    button: (Omit<LinkTarget, 'id'> & { id?: string }) | null;
  };
  i18n: { enable: boolean; default_localization: string };
  api: { integrated: boolean };
  require_email_confirmation: boolean;
  auth: { profile_link: string };
}

export interface Branding {
  site_name: string;
  logo_light: string;
  logo_dark: string;
  logo_light_mobile: string;
  logo_dark_mobile: string;
  favicon: string;
}

export interface Bootstrap {
  user: User | null;
  guest_role: { id: number; name: string; permissions: Permission[] };
  themes: { all: Theme[]; selectedThemeId: number | null };
  settings: Settings;
  branding: Branding;
  i18n: { language: string; lines: Record<string, string> };
  localizations: Localization[];
  menus: Menu[];
  registration: { disable: boolean; policies: LinkTarget[] };
  recaptcha: { site_key: string; enable: { register: boolean; contact: boolean; link_creation: boolean } };
  notifications: { integrated: boolean; subscriptions: { integrated: boolean } };
  billing: { enable: boolean };
  social: { google: { enable: boolean }; facebook: { enable: boolean }; twitter: { enable: boolean } };
  site: { demo: boolean };
  demo: { loginPageDefaults: 'singleAccount' | 'randomAccount' };
  app_version: string;
}
