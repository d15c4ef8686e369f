import { z } from 'zod';

/** The wire contract of sharing with people (paths ours; the spec names the Shared with me view). */

export const SHARE_PERMISSIONS = ['view', 'edit'] as const;
export type SharePermission = (typeof SHARE_PERMISSIONS)[number];

const permission = z.enum(SHARE_PERMISSIONS).describe('view: view and download; edit: also upload into, rename, move and delete within');

export const shareBody = z.object({
  entryIds: z.array(z.string().min(1).max(64)).min(1).max(100),
  emails: z
    .array(z.email().max(320))
    .min(1)
    .max(50)
    .transform((emails) => [...new Set(emails.map((email) => email.trim().toLowerCase()))]),
  permission,
});
export const entryParams = z.object({ id: z.string().min(1).max(64) });
export const shareParams = z.object({ shareId: z.coerce.number().int().positive() });
export const changeShareBody = z.object({ permission });

export const shareSchema = z.object({
  id: z.number().int(),
  entry_id: z.string().describe('The shared entry (hash)'),
  permission,
  user: z.object({ id: z.number().int(), display_name: z.string(), email: z.string(), avatar: z.string().nullable() }),
  created_at: z.string(),
});
export type ShareOut = z.infer<typeof shareSchema>;

export const sharesResponse = z.object({ shares: z.array(shareSchema) });
export const sharesMessageResponse = sharesResponse.extend({ message: z.string() });
export const messageResponse = z.object({ message: z.string() });
