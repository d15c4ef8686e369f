import { z } from 'zod';
import { sameSitePath } from '../../../common/same-site-path.js';

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const SLUG_INVALID = 'The slug may only contain lowercase letters, digits and single dashes between them.';
export const OG_IMAGE_INVALID = 'Enter a full image address starting with https:// or a path starting with /.';

const visibility = z.enum(['public', 'signed_in']);
const safeImage = z
  .string()
  .trim()
  .max(2000)
  .refine((v) => v === '' || /^https?:\/\//i.test(v) || sameSitePath(v) !== null, OG_IMAGE_INVALID)
  .overwrite((v) => sameSitePath(v) ?? v);

export const pageMeta = z.object({
  description: z.string().trim().max(500).default(''),
  keywords: z.string().trim().max(500).default(''),
  og_image: safeImage.default(''),
});

/** What an admin sends to create or edit a page. The body is cleaned on save (sanitize.ts), not refused. */
export const pageBody = z.object({
  title: z.string().trim().min(3).max(250),
  slug: z.string().trim().min(3).max(250).regex(SLUG_PATTERN, SLUG_INVALID),
  body: z.string().max(1_000_000),
  meta: pageMeta.default({ description: '', keywords: '', og_image: '' }),
  visibility: visibility.default('public'),
});
export type PageInput = z.infer<typeof pageBody>;

export const customPageSchema = z
  .object({
    id: z.number().int(),
    title: z.string(),
    slug: z.string(),
    body: z.string(),
    meta: z.object({ description: z.string(), keywords: z.string(), og_image: z.string() }),
    visibility,
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'CustomPage' });

/** The head tags of a page: the document title and meta tags by `name` or `property` (Open Graph). */
export const seoSchema = z
  .object({
    title: z.string(),
    tags: z.array(z.object({ attribute: z.enum(['name', 'property']), key: z.string(), content: z.string() })),
  })
  .meta({ id: 'Seo' });

export const slugParam = z.object({ slug: z.string().max(250) });
export const publicPageResponse = z.object({ page: customPageSchema, seo: seoSchema });
