import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { admit, currentActor } from '../../plugins/guards.js';
import type { ActivityService } from './service.js';

const tags = ['activity'];

const activityRecord = z
  .object({
    id: z.number().int(),
    entry_id: z.number().int(),
    entry_name: z.string(),
    entry_type: z.string(),
    action: z
      .string()
      .describe(
        'created, new-version, renamed, moved, copied, trashed, restored, purged, shared, unshared, permission-changed, link-created, link-opened, link-downloaded, dropped',
      ),
    actor: z.object({
      kind: z.string().describe('user, visitor, webdav or system'),
      id: z.number().int().nullable(),
      name: z.string().nullable(),
    }),
    address: z.string().nullable().describe("A visitor's network (IPv4 /24, IPv6 /48), never the host"),
    details: z.record(z.string(), z.union([z.string(), z.number(), z.null()])),
    created_at: z.string(),
  })
  .meta({ id: 'ActivityRecord' });

const activityPage = z.object({ data: z.array(activityRecord), next_cursor: z.string().nullable() });
const pageQuery = z.object({ cursor: z.coerce.number().int().positive().optional() });

/** Activity (issue 35): an entry's, for whoever may view it; a workspace's, for its admins. */
export const activityRoutes: FastifyPluginAsyncZod<{ activity: ActivityService }> = async (app, { activity }) => {
  app.get(
    '/file-entries/:id/activity',
    {
      onRequest: admit('user'),
      schema: {
        tags,
        summary: 'What happened to a file or folder, newest first',
        params: z.object({ id: z.string().min(1).max(64) }),
        querystring: pageQuery,
        response: { 200: activityPage },
      },
    },
    async (request) => activity.forEntry(currentActor(request), request.params.id, request.query.cursor),
  );

  app.get(
    '/workspace/:workspaceId/activity',
    {
      onRequest: admit('user'),
      schema: {
        tags,
        summary: "What happened to a workspace's files and folders, newest first (its admins)",
        params: z.object({ workspaceId: z.coerce.number().int().positive() }),
        querystring: pageQuery,
        response: { 200: activityPage },
      },
    },
    async (request) => activity.forWorkspace(currentActor(request), request.params.workspaceId, request.query.cursor),
  );
};
