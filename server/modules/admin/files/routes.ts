import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePermission } from '../../../plugins/guards.js';
import { sendStored } from '../../drive/send-stored.js';
import { callerOf } from '../caller.js';
import { listQuery, pageSchema } from '../paging.js';
import { idsBody, okResponse } from '../users/schemas.js';
import { FILE_SORTS } from './service.js';
import type { Admin } from '../build.js';
import type { DriveFiles } from '../../drive/files.js';

const tags = ['admin: files'];
const fileRow = z
  .object({
    id: z.number().int(),
    hash: z.string(),
    name: z.string(),
    type: z.string(),
    mime: z.string().nullable(),
    file_size: z.number(),
    created_at: z.string(),
    deleted_at: z.string().nullable(),
    owner_id: z.number().int(),
    owner_email: z.string(),
    workspace_id: z.number().int().nullable(),
    workspace_name: z.string().nullable(),
  })
  .meta({ id: 'AdminFileRow' });

const fileQuery = listQuery(FILE_SORTS).extend({
  type: z.string().max(32).optional(),
  ownerId: z.coerce.number().int().positive().optional(),
  workspaceId: z.coerce.number().int().positive().optional(),
  trashed: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
});

export const adminFileRoutes: FastifyPluginAsyncZod<Pick<Admin, 'files'> & { storedFiles: DriveFiles }> = async (app, { files, storedFiles }) => {
  app.get(
    '/files',
    {
      onRequest: requirePermission('all_files.view'),
      schema: { tags, summary: 'Every entry in the system, filtered, searched and sorted', querystring: fileQuery, response: { 200: pageSchema(fileRow) } },
    },
    async (request) => files.list(request.query),
  );
  app.post(
    '/files/delete',
    {
      onRequest: requirePermission('all_files.delete'),
      schema: { tags, summary: 'Delete entries forever (bytes after the rows)', body: idsBody, response: { 200: okResponse } },
    },
    async (request) => {
      const count = await files.delete(callerOf(request), request.body.ids);
      return { message: count > 0 ? 'Deleted files' : 'Nothing was deleted' };
    },
  );
  app.get(
    '/files/:id/download',
    {
      onRequest: requirePermission('all_files.download'),
      schema: { tags, summary: 'Download a file for support (recorded)', params: z.object({ id: z.coerce.number().int().positive() }) },
    },
    async (request, reply) => {
      const { entry, key } = await files.download(callerOf(request), request.params.id);
      return sendStored(request, reply, storedFiles, entry, key, { inline: false, contentType: 'application/octet-stream' });
    },
  );
};
