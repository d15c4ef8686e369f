import { z } from 'zod';
import { themeSchema } from '../../bootstrap/schemas.js';

export const themeIdParam = z.object({ id: z.coerce.number().int().positive() });

export const themeBody = z.object({
  name: z.string().trim().min(1).max(100),
  is_dark: z.boolean(),
  default_light: z.boolean().optional(),
  default_dark: z.boolean().optional(),
  colors: z.record(z.string().max(64), z.string().max(64)).describe('Style variable → #rrggbb or "r g b" (stored as "r g b")'),
});

export const themeList = z.object({ themes: z.array(themeSchema), variables: z.array(z.string()).describe('Every colour variable the app uses') });
export const themeResponse = z.object({ theme: themeSchema });
