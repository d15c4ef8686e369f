import { z } from 'zod';
import { ENTRY_TYPES } from './kinds.js';
import { entryNameSchema } from './names.js';

/** The wire contract of the drive calls (spec §3, §7). */
const hash = z.string().min(1).max(64);
const hashList = z.array(hash).min(1).max(1000);
const flag = z
  .enum(['true', 'false', '1', '0'])
  .transform((value) => value === 'true' || value === '1')
  .optional();
const dateOrDateTime = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);

export const ORDER_COLUMNS = ['name', 'updated_at', 'created_at', 'file_size', 'type'] as const;
export type OrderColumn = (typeof ORDER_COLUMNS)[number];

export const fileEntrySchema = z
  .object({
    id: z.string().describe('The public id (same as hash)'),
    hash: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    type: z.string().describe(`One of ${ENTRY_TYPES.join(', ')}`),
    mime: z.string().nullable(),
    extension: z.string().nullable(),
    file_size: z.number().describe('Bytes; folders carry the sum of the files below them'),
    parent_id: z.string().nullable().describe('Hash of the parent folder; null at the root'),
    owner_id: z.number().int(),
    owner_name: z.string().nullable().describe('Display name of the user who holds the entry'),
    workspace_id: z.number().int(),
    is_starred: z.boolean(),
    is_shared: z.boolean().describe('Shared with at least one person, or by a link'),
    url: z.string().nullable().describe('Preview address (shown inline); null for folders and kinds that have no preview'),
    thumbnail_url: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
    deleted_at: z.string().nullable(),
    purge_at: z.string().nullable().describe('In the trash: when it is deleted forever (fixed when it was trashed)'),
    permissions: z
      .array(z.string())
      .describe(
        "What the caller may do to this entry (files.view, files.create, files.update, files.delete, files.download, files.share): the caller's grant on it within their site role",
      ),
  })
  .meta({ id: 'FileEntry' });

export const crumbSchema = z.object({ id: z.string(), hash: z.string(), name: z.string() }).meta({ id: 'FolderCrumb' });

export const folderSchema = z
  .object({ hash: z.string(), name: z.string(), permissions: z.array(z.string()) })
  .meta({ id: 'Folder', description: "The listed folder (spec §3 Folder); the root has hash '0'" });

/**
 * `?workspaceId=` as the OpenAPI document shows it. The value is parsed (and a
 * malformed one refused) for every call in plugins/request-context.ts and
 * checked against the caller by access/scope.ts; this only declares it.
 */
export const workspaceQuery = z.object({
  workspaceId: z.coerce.number().int().min(0).optional().describe('The workspace to work in; 0 or absent: your personal space. Unknown or not yours: 404'),
});

export const listQuery = workspaceQuery.extend({
  folderId: hash.optional().describe("A folder's hash, or '0' for the root"),
  page: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .optional()
    .describe(
      'Page number (offset paging). Only page-numbered requests get total and last_page: counting costs as much as the folder is big, so infinite scroll (no page, then cursor) skips it',
    ),
  perPage: z.coerce.number().int().min(1).max(500).default(50),
  cursor: z.string().max(1024).optional().describe('next_cursor of the previous page; replaces page'),
  orderBy: z.enum(ORDER_COLUMNS).optional(),
  orderDir: z.enum(['asc', 'desc']).optional(),
  recentOnly: flag,
  sqlOnly: flag,
  sharedOnly: flag,
  deletedOnly: flag,
  starredOnly: flag,
  query: z
    .string()
    .max(255)
    .regex(/^[^\p{Cc}]*$/u, 'The search may not contain control characters.')
    .optional()
    .describe('Name search (part of the name, any case); with content, also the words inside files'),
  content: flag.describe(
    'With query: also find files whose text (text, Markdown, code, .docx, PDF) has every word of the query (as word prefixes; case, accents and Turkish dotted/dotless i ignored). Each such file carries content_match',
  ),
  type: z.enum(ENTRY_TYPES).optional(),
  modifiedFrom: dateOrDateTime.optional(),
  modifiedTo: dateOrDateTime.optional().describe('A date includes that whole day (UTC)'),
  owner: z.enum(['me', 'others']).optional(),
});
export type ListQuery = z.infer<typeof listQuery>;

export const snippetSegmentSchema = z
  .object({ text: z.string(), match: z.boolean().describe('One of the searched words') })
  .meta({ id: 'SnippetSegment', description: 'A run of plain text (never markup): the client marks the runs whose match is true' });

export const listedEntrySchema = fileEntrySchema
  .extend({
    content_match: z
      .object({ segments: z.array(snippetSegmentSchema) })
      .nullable()
      .optional()
      .describe('With content search: where the words are in the file’s text; null when only the name matched'),
  })
  .meta({ id: 'ListedFileEntry' });

export const listResponse = z.object({
  pagination: z.object({
    data: z.array(listedEntrySchema),
    current_page: z.number().int().nullable(),
    per_page: z.number().int(),
    total: z.number().int().nullable(),
    last_page: z.number().int().nullable(),
    next_cursor: z.string().nullable(),
  }),
  folder: folderSchema.nullable(),
});

export const createFolderBody = z.object({
  name: entryNameSchema,
  parentId: hash.nullish().describe("The parent folder's hash; '0' or null for the root"),
});

export const updateEntryBody = z.object({
  name: entryNameSchema.optional(),
  description: z.string().max(10_000).nullish(),
});

export const entryParams = z.object({ id: hash });
export const folderParams = z.object({ hash });

export const moveBody = z.object({ entryIds: hashList, destinationId: hash.nullish() });
export const duplicateBody = z.object({ entryIds: hashList, destinationId: hash.nullish() });
export const entryIdsBody = z.object({ entryIds: hashList });

export const deleteBody = z.object({
  entryIds: z.array(hash).max(1000).default([]),
  /** Sent by the spec's client; entries are identified by entryIds, so paths are accepted and not needed. */
  paths: z.array(z.string().max(4096)).max(1000).optional(),
  deleteForever: z.boolean().default(false),
  emptyTrash: z.boolean().default(false),
});

export const fileEntryResponse = z.object({ fileEntry: fileEntrySchema });
export const folderResponse = z.object({ folder: fileEntrySchema });
export const entriesResponse = z.object({ entries: z.array(fileEntrySchema) });

export const deleteResponse = z.object({
  action: z.enum(['trashed', 'deleted', 'emptied']),
  count: z.number().int(),
  message: z.string().describe("'Moved N items to trash', 'Permanently deleted N items' or 'Emptied trash'"),
});

export const detailsResponse = z.object({ fileEntry: fileEntrySchema.extend({ path: z.array(crumbSchema) }) });
export const pathResponse = z.object({ path: z.array(crumbSchema) });
export const folderTreeResponse = z.object({
  folders: z.array(z.object({ id: z.string(), hash: z.string(), name: z.string(), parent_id: z.string().nullable() })),
});

export const downloadQuery = z.object({
  hashes: z
    .string()
    .min(1)
    .max(65_000)
    .transform((value) => [
      ...new Set(
        value
          .split(',')
          .map((h) => h.trim())
          .filter(Boolean),
      ),
    ])
    .pipe(z.array(hash).min(1).max(1000)),
});

export const spaceUsageResponse = z.object({
  used: z.number().describe('Bytes stored, trash included'),
  available: z.number().nullable().describe('Bytes allowed; null means unlimited'),
});

export const versionParams = z.object({
  id: hash,
  versionId: z.coerce
    .number()
    .int()
    .positive()
    .max(2 ** 31 - 1),
});
export const versionSchema = z
  .object({
    id: z.number(),
    file_size: z.number(),
    mime: z.string().nullable(),
    sha256: z.string().nullable(),
    created_at: z.string().describe('When these bytes were written'),
    replaced_at: z.string().describe('When they stopped being the current content'),
    created_by: z.object({ id: z.number(), name: z.string() }).nullable().describe('Who wrote them (null: an account since deleted)'),
    preview_url: z.string().nullable(),
    download_url: z.string(),
  })
  .describe('An earlier content of a file');
export const versionsResponse = z.object({ versions: z.array(versionSchema) });
const manifestEntrySchema = z
  .object({
    id: z.string().describe('The public id (hash), as the listings show it'),
    parentId: z.string().nullable().describe("Parent folder's id; null at the root of a space"),
    type: z.enum(['folder', 'file']),
    name: z.string(),
    mime: z.string().nullable(),
    size: z.number().describe('Bytes; folders carry the sum of the files below them'),
    sha256: z.string().nullable().describe('The content version (hex sha256); null for folders and files stored before hashes were kept'),
    updatedAt: z.string(),
    canDownload: z.boolean().describe('The caller may take the bytes away (files.download): only then may a device keep them'),
    hasThumbnail: z.boolean().describe('GET file-entries/:id/thumbnail answers for it'),
  })
  .meta({ id: 'OfflineManifestEntry' });

export const offlineManifestResponse = z
  .object({
    root: manifestEntrySchema,
    entries: z.array(manifestEntrySchema).describe('Every live entry below the root that the caller may see, parents before their children; empty for a file'),
  })
  .meta({ id: 'OfflineManifest' });
