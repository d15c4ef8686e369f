import { memoisingQueryValidator } from '../../lib/memo-query.js';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Actor } from '../access/actor.js';
import { render } from '../../lib/errors.js';
import { exactly, exactResponse } from '../../lib/response-serializer.js';
import { admit, currentActor } from '../../plugins/guards.js';
import { linesFor } from '../../plugins/request-lines.js';
import { fileRoutes } from './file-routes.js';
import type { Drive } from './build.js';
import { versionRoutes } from './version-routes.js';
import { listingTag, notModified } from './listing-etag.js';
import {
  createFolderBody,
  deleteBody,
  deleteResponse,
  detailsResponse,
  duplicateBody,
  entriesResponse,
  entryIdsBody,
  entryParams,
  fileEntryResponse,
  folderParams,
  folderResponse,
  folderTreeResponse,
  listQuery,
  listResponse,
  workspaceQuery,
  moveBody,
  offlineManifestResponse,
  pathResponse,
  updateEntryBody,
} from './schemas.js';

const tags = ['drive'];

/**
 * The drive's calls (spec §2 drive screens, §3, §7). Handlers parse, call one
 * service and answer; the services decide access (modules/access), and calls
 * that work in a space resolve it from `?workspaceId=` first.
 */
export interface DriveRoutesDeps {
  drive: Pick<Drive, 'scope' | 'entries' | 'listing' | 'offline' | 'trash' | 'files' | 'thumbnails' | 'versions'>;
  /** The database's write version: a listing answers 304 while it has not moved. */
  version(): number;
}

export const driveRoutes: FastifyPluginAsyncZod<DriveRoutesDeps> = async (app, { drive, version }) => {
  // Queued thumbnails are background jobs: app.ts lets them finish before the database closes.

  await app.register(async (scope) => {
    const api = scope.withTypeProvider<ZodTypeProvider>();
    api.addHook('onRequest', admit('user'));
    const scopeOf = (request: { actor: Actor; ctx: { workspaceId: number | null } }) => drive.scope(request.actor, request.ctx.workspaceId);

    api.get(
      '/drive/file-entries',
      {
        schema: {
          tags,
          summary: 'List a folder or a view (recent, SQL, shared, trash, starred), with search and filters',
          description:
            'Default sort updated_at desc; recent and SQL created_at desc; folders first for name sorts. Page with page/perPage, or follow next_cursor (then total is null).',
          querystring: listQuery,
          // Built field by field by present.ts and listing.ts: written with JSON.stringify (see exactResponse).
          response: { 200: exactResponse(listResponse) },
        },
        // listQuery is pure and its output primitives: the same query again is not parsed again.
        validatorCompiler: memoisingQueryValidator,
      },
      async (request, reply) => {
        if (notModified(request, reply, listingTag(version(), request))) return reply;
        return exactly(listResponse, await drive.listing.list(currentActor(request), await scopeOf(request), request.query));
      },
    );

    api.get(
      '/drive/folders',
      {
        schema: {
          tags,
          summary: "The folders of the space, flat, for the move dialog's tree",
          querystring: workspaceQuery,
          response: { 200: folderTreeResponse },
        },
      },
      async (request) => ({ folders: await drive.entries.folderTree(currentActor(request), await scopeOf(request)) }),
    );

    api.post(
      '/folders',
      {
        schema: {
          tags,
          summary: 'Create a folder',
          description: 'A name already used in the parent folder answers 409 with a field error.',
          querystring: workspaceQuery,
          body: createFolderBody,
          response: { 200: folderResponse },
        },
      },
      async (request) => ({ folder: await drive.entries.createFolder(currentActor(request), await scopeOf(request), request.body) }),
    );

    api.get(
      '/folders/:hash/path',
      {
        schema: {
          tags,
          summary: "Breadcrumbs from the root to the folder ('0': the root, no crumbs)",
          params: folderParams,
          querystring: workspaceQuery,
          response: { 200: pathResponse },
        },
      },
      async (request) => ({ path: await drive.entries.folderPath(currentActor(request), await scopeOf(request), request.params.hash) }),
    );

    api.get(
      '/file-entries/:id',
      { schema: { tags, summary: 'One entry with the folders above it', params: entryParams, response: { 200: detailsResponse } } },
      async (request) => ({ fileEntry: await drive.entries.details(currentActor(request), request.params.id) }),
    );

    api.get(
      '/file-entries/:id/offline-manifest',
      {
        schema: {
          tags,
          summary: 'What a device keeps of a file or folder made available offline: the entry and every live entry below it',
          description:
            'One response for the whole subtree (at most 25,000 entries, else 422). The ETag is a digest of the manifest: send it back in If-None-Match and an unchanged subtree answers 304 with no body.',
          params: entryParams,
          response: { 200: offlineManifestResponse, 304: z.null().describe('Not modified') },
        },
      },
      async (request, reply) => {
        const answer = await drive.offline.read(currentActor(request), request.params.id, request.headers['if-none-match']);
        // no-cache: the sync engine revalidates every time, and a 304 is what an unchanged subtree costs.
        reply.header('etag', answer.tag).header('cache-control', 'private, no-cache');
        if (!answer.manifest) return reply.code(304).send(null);
        return answer.manifest;
      },
    );

    api.put(
      '/file-entries/:id',
      {
        schema: {
          tags,
          summary: 'Rename an entry or change its description',
          description: 'A name already used in the same folder answers 409 with a field error.',
          params: entryParams,
          body: updateEntryBody,
          response: { 200: fileEntryResponse },
        },
      },
      async (request) => ({ fileEntry: await drive.entries.update(currentActor(request), request.params.id, request.body) }),
    );

    api.post(
      '/file-entries/move',
      {
        schema: {
          tags,
          summary: 'Move entries into a folder',
          description: "Into itself or a subfolder: 422. A name taken in the destination gets a ' (1)'-style suffix.",
          querystring: workspaceQuery,
          body: moveBody,
          response: { 200: entriesResponse },
        },
      },
      async (request) => ({
        entries: await drive.entries.move(currentActor(request), await scopeOf(request), request.body.entryIds, request.body.destinationId),
      }),
    );

    api.post(
      '/file-entries/duplicate',
      {
        schema: {
          tags,
          summary: 'Copy entries (folders deeply) beside the originals or into a folder',
          description: "Copies get ' (1)'-style names where the name is taken.",
          querystring: workspaceQuery,
          body: duplicateBody,
          response: { 200: entriesResponse },
        },
      },
      async (request) => ({
        entries: await drive.entries.duplicate(currentActor(request), await scopeOf(request), request.body.entryIds, request.body.destinationId),
      }),
    );

    api.post(
      '/file-entries/delete',
      {
        schema: {
          tags,
          summary: 'Move entries to trash, delete them forever, or empty the trash (spec §7)',
          querystring: workspaceQuery,
          body: deleteBody,
          response: { 200: deleteResponse },
        },
      },
      async (request) => {
        const result = await drive.trash.delete(currentActor(request), await scopeOf(request), request.body);
        return { ...result, message: render(result.message, await linesFor(request)) };
      },
    );

    api.post(
      '/file-entries/restore',
      {
        schema: {
          tags,
          summary: 'Restore entries from the trash',
          description: 'An entry whose folder is still in the trash returns to the nearest folder above that is not (or the root).',
          body: entryIdsBody,
          response: { 200: entriesResponse },
        },
      },
      async (request) => ({ entries: await drive.trash.restore(currentActor(request), request.body.entryIds) }),
    );

    api.post('/file-entries/star', { schema: { tags, summary: 'Star entries', body: entryIdsBody, response: { 200: entriesResponse } } }, async (request) => ({
      entries: await drive.entries.star(currentActor(request), request.body.entryIds),
    }));

    api.post(
      '/file-entries/unstar',
      { schema: { tags, summary: 'Remove stars', body: entryIdsBody, response: { 200: entriesResponse } } },
      async (request) => ({ entries: await drive.entries.unstar(currentActor(request), request.body.entryIds) }),
    );

    await api.register(fileRoutes, { drive });
    await api.register(versionRoutes, { drive });
  });
};
