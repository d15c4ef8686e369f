import { z } from 'zod';
import { isAddressOrRange } from '../../../observability/addresses.js';
import { safeAction } from '../../menus/schemas.js';
import { isTimezone } from '../../../lib/time.js';

const MB = 1024 * 1024;
const httpUrlOrEmpty = z.union([z.literal(''), z.url({ protocol: /^https?$/, message: 'Enter a full address starting with http:// or https://.' })]);
const smtpUrlOrEmpty = z.union([z.literal(''), z.url({ protocol: /^smtps?$/, message: 'Enter an SMTP address such as smtp://name@mail.example.com:587.' })]);
const sender = z.union([
  z.literal(''),
  z.email({ message: 'Enter an email address, or a name and an address: Drive <no-reply@example.com>.' }),
  z.string().regex(/^[^<>]{1,100} <[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+>$/, 'Enter an email address, or a name and an address: Drive <no-reply@example.com>.'),
]);
const secret = z.string().max(2000);
const bool = z.boolean();
const rate = z.number().min(0).max(1).nullable();
const extensions = z.array(z.string().trim().min(1).max(100)).max(200);
const link = z.object({ label: z.string().trim().min(1).max(100), action: z.string().trim().max(500), type: z.enum(['route', 'link']) });

/**
 * Every setting the admin area edits, in its groups, each with its rule.
 * `secret` keys are write-only: a GET answers only whether they are set.
 */
export const settingGroups = {
  general: {
    'branding.site_name': z.string().trim().min(1).max(100),
    'site.url': httpUrlOrEmpty.describe('The public address in links the server builds: mails, share links, Stripe return pages (empty: APP_URL)'),
    'site.marketing_url': httpUrlOrEmpty.describe('Where / sends visitors (empty: the app itself)'),
    'dates.default_timezone': z
      .string()
      .max(64)
      .refine((v) => v === '' || isTimezone(v), 'The selected timezone is invalid.'),
    'i18n.default_localization': z.string().min(2).max(16),
    'i18n.enable': bool,
  },
  authentication: {
    'registration.disable': bool,
    require_email_confirmation: bool,
    // A policy is a link like a menu item (spec §3), usually to a custom page: the same address rule applies.
    'registration.policies': z.array(link.extend({ id: z.string().trim().min(1).max(50), action: safeAction })).max(10),
    'social.google.enable': bool,
    'social.google.client_id': z.string().trim().max(500),
    'social.google.client_secret': secret,
    'social.google.issuer': httpUrlOrEmpty.describe('OpenID Connect issuer (Google by default; another provider that speaks OIDC)'),
    'social.facebook.enable': bool,
    'social.facebook.client_id': z.string().trim().max(500),
    'social.facebook.client_secret': secret,
    'recaptcha.site_key': z.string().trim().max(500),
    'recaptcha.secret_key': secret,
    'recaptcha.enable.register': bool,
    'recaptcha.enable.contact': bool,
    'recaptcha.enable.link_creation': bool,
  },
  uploads: {
    'uploads.max_size': z
      .number()
      .int()
      .min(1)
      .max(1024 * 1024 * MB),
    'uploads.allowed_extensions': extensions,
    'uploads.blocked_extensions': extensions,
    'uploads.chunk_size': z
      .number()
      .int()
      .min(MB)
      .max(512 * MB),
    'uploads.disable_tus': bool,
    'uploads.available_space': z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable(),
    'trash.keep_days': z.number().int().min(1).max(3650).describe('Days a trashed entry stays before it is deleted forever'),
    'versions.max_days': z.number().int().min(0).max(3650).describe('The longest a file version is kept, in days (0: no limit beyond the thinning)'),
    'activity.keep_days': z.number().int().min(1).max(3650).describe('How many days activity records are kept before the scheduler prunes them'),
  },
  mail: {
    'mail.url': smtpUrlOrEmpty,
    'mail.from': sender,
  },
  notifications: {
    'notifications.integrated': bool,
    'notifications.subscriptions.integrated': bool,
    'notifications.channels.email': bool.describe('Send notifications by email'),
    'notifications.channels.browser': bool.describe('Send notifications as browser (web push) notifications'),
  },
  billing: {
    'billing.enable': bool,
    'billing.stripe.secret_key': secret,
    'billing.stripe.webhook_secret': secret,
  },
  cookie_notice: {
    'cookie_notice.enable': bool,
    'cookie_notice.position': z.enum(['top', 'bottom']),
    'cookie_notice.button': link,
  },
  observability: {
    'observability.sentry_dsn': httpUrlOrEmpty.describe(
      'Sentry-compatible DSN for error reports of the server, the app, its worker and jobs (empty: SENTRY_DSN, or off)',
    ),
    'observability.sample_rate': rate.describe('Share of errors reported, 0 to 1 (empty: SENTRY_SAMPLE_RATE, default 1)'),
    'observability.otlp_endpoint': httpUrlOrEmpty.describe('OTLP/HTTP traces address, …/v1/traces (empty: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, or off)'),
    'observability.traces_sample_rate': rate.describe('Share of requests traced, 0 to 1 (empty: OTEL_TRACES_SAMPLER_ARG, default 1)'),
    'observability.metrics_token': z
      .union([z.literal(''), z.string().min(16, 'Use at least 16 characters.').max(200)])
      .describe('Bearer token a Prometheus scraper sends to /metrics'),
    'observability.metrics_allow': z
      .array(z.string().trim().refine(isAddressOrRange, 'Enter an IP address or a range such as 10.0.0.0/8.'))
      .max(50)
      .describe('Addresses that may read /metrics without the token'),
  },
  demo: { 'site.demo': bool },
  api: { 'api.integrated': bool },
} as const;

const allEditable = Object.assign({}, ...Object.values(settingGroups)) as {
  [G in keyof typeof settingGroups]: (typeof settingGroups)[G];
}[keyof typeof settingGroups];
type Editable = { [K in keyof typeof allEditable]: z.ZodOptional<(typeof allEditable)[K]> };

/** The PUT body: any subset of the editable settings; unknown keys are refused. */
export const settingsBody = z.strictObject(Object.fromEntries(Object.entries(allEditable).map(([key, schema]) => [key, schema.optional()])) as Editable);
export type SettingsInput = z.infer<typeof settingsBody>;
export const EDITABLE_KEYS = Object.keys(allEditable);

const settingValue = z.unknown();
export const settingsResponse = z.object({
  groups: z.record(z.string(), z.array(z.string())).describe('The keys of each group, in screen order'),
  settings: z.record(z.string(), settingValue).describe('Values of every editable setting except secrets'),
  secrets: z.record(z.string(), z.boolean()).describe('Each secret: whether it is set (values never leave the server)'),
  mail: z.object({ configured: z.boolean() }),
});

export const testMailBody = z.object({ to: z.email().max(320).optional() });
