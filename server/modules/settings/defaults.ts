/**
 * Every setting the product reads, with its default. The settings table holds
 * only what an admin changed; `private` settings (secrets) never leave the server.
 */
export type SettingValue = string | number | boolean | null | SettingValue[] | { [key: string]: SettingValue };

export interface SettingDefinition {
  value: SettingValue;
  /** Kept out of the bootstrap data and every answer to the browser. */
  private?: boolean;
  /** A secret: write-only in the admin area, where only whether it is set is shown. */
  secret?: boolean;
}

const MB = 1024 * 1024;

export const settingDefaults = {
  'site.marketing_url': { value: '' },
  /** The public address for links the server builds (empty: APP_URL). */
  'site.url': { value: '' },
  'site.demo': { value: false },
  'demo.loginPageDefaults': { value: 'singleAccount' },

  'branding.site_name': { value: 'Drive' },
  'branding.logo_light': { value: '' },
  'branding.logo_dark': { value: '' },
  'branding.logo_light_mobile': { value: '' },
  'branding.logo_dark_mobile': { value: '' },
  'branding.favicon': { value: '/favicon.svg' },

  'themes.user_change': { value: true },
  'themes.default_id': { value: null },

  /** An admin's CSS and HTML added to every page (appearance editor); not sanitised, by design. */
  'custom_code.css': { value: '' },
  'custom_code.html': { value: '' },

  'dates.default_timezone': { value: '' },
  'dates.format': { value: 'short' },

  'i18n.enable': { value: true },
  'i18n.default_localization': { value: 'en' },

  'registration.disable': { value: false },
  'registration.policies': {
    value: [
      { id: 'terms', label: 'Terms of Service', action: '/pages/terms-of-service', type: 'route' },
      { id: 'privacy', label: 'Privacy Policy', action: '/pages/privacy-policy', type: 'route' },
    ],
  },
  require_email_confirmation: { value: false },
  'auth.profile_link': { value: '' },

  'cookie_notice.enable': { value: true },
  'cookie_notice.position': { value: 'bottom' },
  'cookie_notice.button': { value: { label: 'Learn more', action: '/pages/privacy-policy', type: 'route' } },

  'uploads.max_size': { value: 5 * 1024 * MB },
  'uploads.chunk_size': { value: 5 * MB },
  'uploads.allowed_extensions': { value: [] },
  'uploads.blocked_extensions': { value: [] },
  'uploads.disable_tus': { value: false },
  'uploads.available_space': { value: 10 * 1024 * MB },
  'uploads.uploads_disk': { value: 'local' },
  'uploads.public_disk': { value: 'local' },
  'uploads.s3_direct_upload': { value: false },

  /** Days a trashed entry stays before it is deleted forever (a plan may set its own); see drive/trash.ts. */
  'trash.keep_days': { value: 30 },
  /** The longest a file version is kept, in days (0: as long as the thinning steps allow); see drive/retention.ts. */
  'versions.max_days': { value: 365 },
  /** Activity records (issue 35) older than this many days are pruned by the scheduler. */
  'activity.keep_days': { value: 365 },

  'api.integrated': { value: true },
  'notifications.integrated': { value: true },
  'notifications.subscriptions.integrated': { value: true },
  /** Site-wide channel switches: off, nobody gets that channel whatever they chose (in-app always works). */
  'notifications.channels.email': { value: true },
  'notifications.channels.browser': { value: true },
  /** The web push VAPID key pair ({ publicKey, privateKey }), made on first use (SettingsService.vapidKeys). */
  'notifications.vapid': { value: null, private: true, secret: true },
  /** Billing is on when this is true and Stripe's keys are configured (here or in STRIPE_* variables). */
  'billing.enable': { value: true },
  'billing.stripe.secret_key': { value: '', private: true, secret: true },
  'billing.stripe.webhook_secret': { value: '', private: true, secret: true },

  /** Outgoing mail, set in the admin area; empty falls back to MAIL_URL / MAIL_FROM. */
  'mail.url': { value: '', private: true, secret: true },
  'mail.from': { value: '', private: true },

  'social.google.enable': { value: false },
  'social.google.client_id': { value: '', private: true },
  'social.google.client_secret': { value: '', private: true, secret: true },
  'social.google.issuer': { value: 'https://accounts.google.com', private: true },
  'social.facebook.enable': { value: false },
  'social.facebook.client_id': { value: '', private: true },
  'social.facebook.client_secret': { value: '', private: true, secret: true },
  'social.facebook.authorization_endpoint': { value: 'https://www.facebook.com/v19.0/dialog/oauth', private: true },
  'social.facebook.token_endpoint': { value: 'https://graph.facebook.com/v19.0/oauth/access_token', private: true },
  'social.facebook.userinfo_endpoint': { value: 'https://graph.facebook.com/me?fields=id,name,email,first_name,last_name,picture', private: true },
  'social.twitter.enable': { value: false },

  /** Signs short-lived cookies (human check, OAuth state); generated on first use. */
  'app.key': { value: '', private: true, secret: true },

  /** Observability (server/observability): each empty or null value falls back to its environment variable. */
  'observability.sentry_dsn': { value: '', private: true },
  'observability.sample_rate': { value: null, private: true },
  'observability.otlp_endpoint': { value: '', private: true },
  'observability.traces_sample_rate': { value: null, private: true },
  'observability.metrics_token': { value: '', private: true, secret: true },
  'observability.metrics_allow': { value: [], private: true },

  'recaptcha.site_key': { value: '' },
  'recaptcha.secret_key': { value: '', private: true, secret: true },
  'recaptcha.verify_url': { value: 'https://www.google.com/recaptcha/api/siteverify', private: true },
  'recaptcha.enable.register': { value: false },
  'recaptcha.enable.contact': { value: false },
  'recaptcha.enable.link_creation': { value: false },
} satisfies Record<string, SettingDefinition>;

export type SettingKey = keyof typeof settingDefaults;
