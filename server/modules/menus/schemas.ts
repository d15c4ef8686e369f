import { z } from 'zod';
import { sameSitePath } from '../../../common/same-site-path.js';

/** Where the app shows a menu (spec §2 "Top navigation bar", footer). */
export const MENU_POSITIONS = ['navbar', 'mobile-menu', 'user-menu', 'footer'] as const;

export const UNSAFE_ACTION = 'Enter a path such as /pages/about, or an address starting with https:// or mailto:.';

/**
 * A menu item's or policy's address: a path inside the app (as a browser reads
 * it), or an http(s) or mailto address; null for anything else (javascript:,
 * data:, //host, /<TAB>/host), which could run script or leave the site
 * unnoticed.
 */
export function linkAction(value: string): string | null {
  return sameSitePath(value) ?? (/^(https?:\/\/[^\s]+|mailto:[^\s]+)$/i.test(value) ? value : null);
}

/** A refused address is a field error; an accepted one is stored as a browser reads it. */
export const safeAction = z
  .string()
  .trim()
  .min(1)
  .max(500)
  .refine((v) => linkAction(v) !== null, UNSAFE_ACTION)
  .overwrite((v) => linkAction(v) ?? v);

export const menuItemInput = z.object({
  id: z.string().trim().max(64).optional(),
  label: z.string().trim().min(1).max(100),
  action: safeAction,
  target: z.enum(['_blank', '_self']).nullable().default(null),
  roles: z.array(z.number().int().positive()).max(50).default([]),
  permissions: z.array(z.string().trim().min(1).max(64)).max(50).default([]),
});

export const menuInput = z.object({
  name: z.string().trim().min(1).max(100),
  positions: z.array(z.enum(MENU_POSITIONS)).max(MENU_POSITIONS.length).default([]),
  items: z.array(menuItemInput).max(100).default([]),
});
export type MenuInput = z.infer<typeof menuInput>;

export const menuItemSchema = z.object({
  id: z.string(),
  label: z.string(),
  action: z.string(),
  type: z.enum(['route', 'link']),
  target: z.string().nullable(),
  roles: z.array(z.number().int()),
  permissions: z.array(z.string()),
});

export const storedMenuSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    positions: z.array(z.string()),
    items: z.array(menuItemSchema),
    updated_at: z.string(),
  })
  .meta({ id: 'StoredMenu' });

export const menuIdParam = z.object({ id: z.coerce.number().int().positive() });
export const menuListResponse = z.object({ menus: z.array(storedMenuSchema), positions: z.array(z.enum(MENU_POSITIONS)) });
export const menuResponse = z.object({ menu: storedMenuSchema });
