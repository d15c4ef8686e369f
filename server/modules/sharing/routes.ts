import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { render } from '../../lib/errors.js';
import { currentActor, requireUser } from '../../plugins/guards.js';
import { linesFor } from '../../plugins/request-lines.js';
import { changeShareBody, entryParams, messageResponse, shareBody, shareParams, sharesMessageResponse, sharesResponse } from './schemas.js';
import type { SharingService } from './service.js';

const tags = ['sharing'];

/** Sharing with people: who has access to an entry, share, change, remove. */
export const sharingRoutes: FastifyPluginAsyncZod<{ sharing: SharingService }> = async (app, { sharing }) => {
  app.addHook('onRequest', requireUser);

  app.get(
    '/file-entries/:id/shares',
    { schema: { tags, summary: 'Who an entry is shared with (files.share on it)', params: entryParams, response: { 200: sharesResponse } } },
    async (request) => ({ shares: await sharing.list(currentActor(request), request.params.id) }),
  );

  app.post(
    '/file-entries/shares',
    {
      schema: {
        tags,
        summary: 'Share entries with people by email: view (and download) or edit; answers the first entry’s shares',
        body: shareBody,
        response: { 200: sharesMessageResponse },
      },
    },
    async (request) => ({
      shares: await sharing.share(currentActor(request), request.body.entryIds, request.body.emails, request.body.permission),
      message: render('Shared', await linesFor(request)),
    }),
  );

  app.put(
    '/file-entries/shares/:shareId',
    { schema: { tags, summary: "Change a share's permission", params: shareParams, body: changeShareBody, response: { 200: sharesResponse } } },
    async (request) => ({ shares: await sharing.change(currentActor(request), request.params.shareId, request.body.permission) }),
  );

  app.delete(
    '/file-entries/shares/:shareId',
    { schema: { tags, summary: 'Remove a share (its entry’s sharer, or the recipient themself)', params: shareParams, response: { 200: messageResponse } } },
    async (request) => {
      await sharing.remove(currentActor(request), request.params.shareId);
      return { message: render('Access removed', await linesFor(request)) };
    },
  );
};
