import { z } from 'zod';

/** The wire contract of `GET bootstrap-data` (spec §3 "Bootstrap data"). */
const restriction = z.object({ name: z.string(), value: z.union([z.string(), z.number(), z.boolean(), z.null()]) });
export const permissionSchema = z.object({ name: z.string(), restrictions: z.array(restriction) });

export const userSchema = z
  .object({
    id: z.number().int(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    display_name: z.string(),
    avatar: z.string().nullable(),
    email: z.string(),
    email2: z.string().nullable(),
    company: z.string().nullable(),
    designation: z.string().nullable(),
    mobile: z.string().nullable(),
    address: z.string().nullable(),
    city: z.string().nullable(),
    country: z.string().nullable(),
    zipcode: z.string().nullable(),
    language: z.string().nullable(),
    timezone: z.string().nullable(),
    unread_notifications_count: z.number().int(),
    email_verified_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
    permissions: z.array(permissionSchema),
    roles: z.array(z.object({ id: z.number().int(), name: z.string() })),
    subscriptions: z.array(z.object({ id: z.number().int(), valid: z.boolean() })),
  })
  .meta({ id: 'User' });

const linkType = z.enum(['route', 'link']);

export const themeSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    is_dark: z.boolean(),
    default_light: z.boolean(),
    default_dark: z.boolean(),
    colors: z.record(z.string(), z.string()),
  })
  .meta({ id: 'Theme' });

export const menuSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    positions: z.array(z.string()),
    items: z.array(
      z.object({
        id: z.string(),
        label: z.string(),
        action: z.string(),
        type: linkType,
        target: z.string().nullable(),
        roles: z.array(z.number().int()),
        permissions: z.array(z.string()),
      }),
    ),
  })
  .meta({ id: 'Menu' });

export const localizationSummarySchema = z.object({ id: z.number().int(), language: z.string(), name: z.string() }).meta({ id: 'LocalizationSummary' });

/** Settings are open-ended (admins add keys); these are the ones the app relies on. */
const settingsSchema = z
  .object({
    base_url: z.string(),
    registration: z.object({ disable: z.boolean() }),
  })
  .catchall(z.unknown());

export const bootstrapSchema = z
  .object({
    user: userSchema.nullable(),
    guest_role: z.object({ id: z.number().int(), name: z.string(), permissions: z.array(permissionSchema) }),
    themes: z.object({ all: z.array(themeSchema), selectedThemeId: z.number().int().nullable() }),
    settings: settingsSchema,
    branding: z.object({
      site_name: z.string(),
      logo_light: z.string(),
      logo_dark: z.string(),
      logo_light_mobile: z.string(),
      logo_dark_mobile: z.string(),
      favicon: z.string(),
    }),
    i18n: z.object({ language: z.string(), lines: z.record(z.string(), z.string()) }),
    localizations: z.array(localizationSummarySchema),
    menus: z.array(menuSchema),
    registration: z.object({
      disable: z.boolean(),
      policies: z.array(z.object({ id: z.string(), label: z.string(), action: z.string(), type: linkType })),
    }),
    recaptcha: z.object({
      site_key: z.string(),
      enable: z.object({ register: z.boolean(), contact: z.boolean(), link_creation: z.boolean() }),
    }),
    notifications: z.object({ integrated: z.boolean(), subscriptions: z.object({ integrated: z.boolean() }) }),
    billing: z.object({ enable: z.boolean() }),
    social: z.object({
      google: z.object({ enable: z.boolean() }),
      facebook: z.object({ enable: z.boolean() }),
      twitter: z.object({ enable: z.boolean() }),
    }),
    site: z.object({ demo: z.boolean() }),
    demo: z.object({
      loginPageDefaults: z.enum(['singleAccount', 'randomAccount']),
      credentials: z.object({ email: z.string(), password: z.string() }).nullable(),
    }),
    app_version: z.string(),
    /** Set while an admin is signed in as this user (support): who, so the app can say so and offer the way back. */
    impersonator: z.object({ id: z.number().int(), email: z.string(), display_name: z.string() }).nullable(),
    /** A guest's data for a session that must set up a second factor first (a role requires one): the app shows the set-up. */
    two_factor_setup: z.boolean(),
  })
  .meta({ id: 'Bootstrap' });

export const bootstrapResponseSchema = z.object({ data: bootstrapSchema });
