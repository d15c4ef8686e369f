import { z } from 'zod';
import { crumbSchema, folderSchema, listQuery } from '../drive/schemas.js';

/** The wire contract of sharing by link (paths ours; BeDrive's shapes, without its weaknesses). */

const hash = z.string().min(1).max(64);
export const LINK_TOKEN = /^[A-Za-z0-9_-]{16,64}$/;

/** A password of at least 4 characters sets one, null removes it; absent keeps what is there. */
const password = z.string().min(4).max(255).nullable();
const expiresAt = z.iso.datetime({ offset: true }).nullable().describe('When the link stops working; null: never');
const maxDownloads = z.number().int().min(1).max(1_000_000).nullable().describe('Downloads allowed in all; null: no limit');

export const createLinkBody = z.object({
  allowDownload: z.boolean().default(true),
  fileDrop: z.boolean().default(false).describe('Folders only: guests may upload into it and see nothing in it'),
  notifyOwner: z.boolean().default(false).describe('Notify me on the first download and on every file dropped'),
  password: password.optional(),
  expiresAt: expiresAt.optional(),
  maxDownloads: maxDownloads.optional(),
});
export type CreateLinkInput = z.infer<typeof createLinkBody>;

export const updateLinkBody = z.object({
  allowDownload: z.boolean().optional(),
  fileDrop: z.boolean().optional(),
  notifyOwner: z.boolean().optional(),
  password: password.optional(),
  expiresAt: expiresAt.optional(),
  maxDownloads: maxDownloads.optional(),
});
export type UpdateLinkInput = z.infer<typeof updateLinkBody>;

export const entryParams = z.object({ id: hash });
export const linkParams = z.object({ linkId: z.coerce.number().int().positive() });
export const eventsQuery = z.object({ page: z.coerce.number().int().min(1).max(100_000).default(1) });

export const shareLinkSchema = z
  .object({
    id: z.number().int(),
    token: z.string().describe('The public id in the link'),
    url: z.string().describe('The page to send people'),
    entry_id: z.string().describe('The linked entry (hash)'),
    allow_download: z.boolean(),
    file_drop: z.boolean(),
    notify_owner: z.boolean(),
    has_password: z.boolean(),
    expires_at: z.string().nullable(),
    max_downloads: z.number().int().nullable(),
    download_count: z.number().int(),
    view_count: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'ShareLink' });
export type ShareLinkOut = z.infer<typeof shareLinkSchema>;

export const linksResponse = z.object({ links: z.array(shareLinkSchema) });
export const linkResponse = z.object({ link: shareLinkSchema });
export const messageResponse = z.object({ message: z.string() });

export const LINK_EVENT_KINDS = ['open', 'preview', 'download', 'upload', 'password-failed'] as const;
export type LinkEventKind = (typeof LINK_EVENT_KINDS)[number];

export const eventsResponse = z.object({
  pagination: z.object({
    data: z.array(
      z.object({
        id: z.number().int(),
        kind: z.enum(LINK_EVENT_KINDS),
        entry_name: z.string().nullable().describe('What was opened, previewed, downloaded or uploaded'),
        address: z.string().nullable().describe("The visitor's network, anonymised (IPv4 /24, IPv6 /48)"),
        created_at: z.string(),
      }),
    ),
    current_page: z.number().int(),
    per_page: z.number().int(),
    total: z.number().int(),
    last_page: z.number().int(),
  }),
});

// The visitor's side: what a link shows to whoever holds it.

export const tokenParams = z.object({ token: z.string().regex(LINK_TOKEN, 'This link has expired or does not exist.') });
export const tokenEntryParams = tokenParams.extend({ id: hash });
export const unlockBody = z.object({ password: z.string().min(1).max(255) });

/** An entry as a link visitor sees it: no owner, no numeric ids, addresses under the link. */
export const linkEntrySchema = z
  .object({
    id: z.string(),
    hash: z.string(),
    name: z.string(),
    type: z.string(),
    mime: z.string().nullable(),
    extension: z.string().nullable(),
    file_size: z.number(),
    parent_id: z.string().nullable(),
    url: z.string().nullable().describe('Preview address (under the link); null for kinds that have no preview'),
    thumbnail_url: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
    permissions: z.array(z.string()),
  })
  .meta({ id: 'LinkEntry' });
export type LinkEntryOut = z.infer<typeof linkEntrySchema>;

export const visitorLinkSchema = z
  .object({
    token: z.string(),
    requires_password: z.boolean().describe('True until the password is given: then no name or size is shown'),
    allow_download: z.boolean(),
    file_drop: z.boolean(),
    expires_at: z.string().nullable(),
    downloads_left: z.number().int().nullable(),
    owner_name: z.string().nullable(),
    entry: linkEntrySchema.nullable(),
  })
  .meta({ id: 'VisitorLink' });
export type VisitorLinkOut = z.infer<typeof visitorLinkSchema>;

export const visitorLinkResponse = z.object({ link: visitorLinkSchema });

export const linkListQuery = listQuery
  .pick({ folderId: true, page: true, perPage: true, cursor: true, orderBy: true, orderDir: true, query: true, type: true })
  .extend({ folderId: hash.optional().describe('A folder inside the link; absent: the linked folder') });

export const linkListResponse = z.object({
  pagination: z.object({
    data: z.array(linkEntrySchema),
    current_page: z.number().int().nullable(),
    per_page: z.number().int(),
    total: z.number().int().nullable(),
    last_page: z.number().int().nullable(),
    next_cursor: z.string().nullable(),
  }),
  folder: folderSchema,
  path: z.array(crumbSchema).describe('From the linked folder down to this one'),
});
