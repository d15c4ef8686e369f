import type { Bootstrap, MenuItem, Theme, User } from '../../src/api/bootstrap-types';

export function makeUser(overrides: Partial<User> = {}): User {
  return {
    id: 1,
    first_name: 'Ada',
    last_name: 'Lovelace',
    display_name: 'Ada Lovelace',
    avatar: null,
    email: 'ada@example.com',
    email2: null,
    company: null,
    designation: null,
    mobile: null,
    address: null,
    city: null,
    country: null,
    zipcode: null,
    language: 'en',
    timezone: null,
    unread_notifications_count: 0,
    email_verified_at: '2024-01-01T00:00:00Z',
    created_at: '2024-01-01T00:00:00Z',
    updated_at: '2024-01-01T00:00:00Z',
    permissions: [],
    roles: [],
    subscriptions: [],
    ...overrides,
  };
}

export const lightTheme: Theme = {
  id: 1,
  name: 'Light',
  is_dark: false,
  default_light: true,
  default_dark: false,
  colors: { '--be-background': '255 255 255', '--be-primary': '59 130 246' },
};
export const darkTheme: Theme = {
  id: 2,
  name: 'Dark',
  is_dark: true,
  default_light: false,
  default_dark: true,
  colors: { '--be-background': '18 18 18', '--be-primary': '96 165 250' },
};

export function makeItem(overrides: Partial<MenuItem> = {}): MenuItem {
  return { id: 'x', label: 'Item', action: '/drive', type: 'route', target: null, roles: [], permissions: [], ...overrides };
}

export function makeBootstrap(overrides: Partial<Bootstrap> = {}): Bootstrap {
  return {
    user: null,
    guest_role: { id: 99, name: 'guests', permissions: [] },
    themes: { all: [lightTheme, darkTheme], selectedThemeId: null },
    settings: {
      base_url: 'http://localhost',
      site: { marketing_url: '' },
      uploads: {},
      dates: { default_timezone: 'UTC', format: 'short' },
      themes: { user_change: true, default_id: null },
      registration: { disable: false },
      cookie_notice: { enable: true, position: 'bottom', button: null },
      i18n: { enable: true, default_localization: 'en' },
      api: { integrated: false },
      require_email_confirmation: false,
      auth: { profile_link: '' },
    },
    branding: { site_name: 'Drive', logo_light: '', logo_dark: '', logo_light_mobile: '', logo_dark_mobile: '', favicon: '' },
    i18n: { language: 'en', lines: {} },
    localizations: [],
    menus: [],
    registration: { disable: false, policies: [] },
    recaptcha: { site_key: '', enable: { register: false, contact: false, link_creation: false } },
    notifications: { integrated: true, subscriptions: { integrated: false } },
    billing: { enable: false },
    social: { google: { enable: false }, facebook: { enable: false }, twitter: { enable: false } },
    site: { demo: false },
    demo: { loginPageDefaults: 'singleAccount', credentials: null },
    app_version: '1.0.0',
    impersonator: null,
    two_factor_setup: false,
    ...overrides,
  };
}
