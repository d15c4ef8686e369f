import { z } from 'zod';
import { BRANDING_URL_PREFIX } from './branding-files.js';

export const IMAGE_ADDRESS_INVALID = 'Upload an image, or enter an address starting with https:// or /.';

/** An uploaded image of ours, a path on this site, a full https address, or nothing. */
const imageAddress = z
  .string()
  .trim()
  .max(2000)
  .refine(
    (value) => value === '' || value.startsWith(BRANDING_URL_PREFIX) || /^\/(?!\/)[^\s"'<>]*$/.test(value) || /^https:\/\/[^\s"'<>]+$/.test(value),
    IMAGE_ADDRESS_INVALID,
  );

/** Everything the appearance editor edits, each with its rule. */
export const appearanceFields = {
  'branding.site_name': z.string().trim().min(1).max(100),
  'branding.logo_light': imageAddress,
  'branding.logo_dark': imageAddress,
  'branding.logo_light_mobile': imageAddress,
  'branding.logo_dark_mobile': imageAddress,
  'branding.favicon': imageAddress,
  'themes.user_change': z.boolean(),
  'themes.default_id': z.number().int().positive().nullable(),
  // An admin's own code, stored and served as written (not sanitised): the admin area says so.
  'custom_code.css': z.string().max(100_000),
  'custom_code.html': z.string().max(100_000),
} as const;

export const APPEARANCE_KEYS = Object.keys(appearanceFields) as (keyof typeof appearanceFields)[];

type Fields = typeof appearanceFields;
export const appearanceBody = z.strictObject(
  Object.fromEntries(Object.entries(appearanceFields).map(([key, schema]) => [key, schema.optional()])) as {
    [K in keyof Fields]: z.ZodOptional<Fields[K]>;
  },
);
export type AppearanceInput = z.infer<typeof appearanceBody>;

export const appearanceValues = z.object({
  'branding.site_name': z.string(),
  'branding.logo_light': z.string(),
  'branding.logo_dark': z.string(),
  'branding.logo_light_mobile': z.string(),
  'branding.logo_dark_mobile': z.string(),
  'branding.favicon': z.string(),
  'themes.user_change': z.boolean(),
  'themes.default_id': z.number().int().nullable(),
  'custom_code.css': z.string(),
  'custom_code.html': z.string(),
});
export type AppearanceValues = z.infer<typeof appearanceValues>;
