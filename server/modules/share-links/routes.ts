import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { render } from '../../lib/errors.js';
import { currentActor, requireUser } from '../../plugins/guards.js';
import { linesFor } from '../../plugins/request-lines.js';
import {
  createLinkBody,
  entryParams,
  eventsQuery,
  eventsResponse,
  linkParams,
  linkResponse,
  linksResponse,
  messageResponse,
  updateLinkBody,
} from './schemas.js';
import type { ShareLinksService } from './service.js';

const tags = ['share links'];

/** Sharing by link, the owner's side (files.share on the linked entry): make, list, change, delete, and the access log. */
export const shareLinkRoutes: FastifyPluginAsyncZod<{ shareLinks: ShareLinksService }> = async (app, { shareLinks }) => {
  app.addHook('onRequest', requireUser);

  app.get(
    '/file-entries/:id/share-links',
    { schema: { tags, summary: "An entry's links", params: entryParams, response: { 200: linksResponse } } },
    async (request) => ({ links: await shareLinks.list(currentActor(request), request.params.id) }),
  );

  app.post(
    '/file-entries/:id/share-links',
    {
      schema: {
        tags,
        summary: 'Make a link: optional password (argon2id), expiry, download on/off, download limit; file drop for folders',
        params: entryParams,
        body: createLinkBody,
        response: { 200: linkResponse },
      },
    },
    async (request) => ({ link: await shareLinks.create(currentActor(request), request.params.id, request.body) }),
  );

  app.delete(
    '/file-entries/:id/share-links',
    { schema: { tags, summary: 'Revoke every link of an entry at once', params: entryParams, response: { 200: messageResponse } } },
    async (request) => {
      await shareLinks.deleteAll(currentActor(request), request.params.id);
      return { message: render('Links removed', await linesFor(request)) };
    },
  );

  app.put(
    '/share-links/:linkId',
    {
      schema: {
        tags,
        summary: "Change a link's settings (what is sent; password null removes it, a new one ends earlier unlocks)",
        params: linkParams,
        body: updateLinkBody,
        response: { 200: linkResponse },
      },
    },
    async (request) => ({ link: await shareLinks.update(currentActor(request), request.params.linkId, request.body) }),
  );

  app.delete(
    '/share-links/:linkId',
    { schema: { tags, summary: 'Delete a link', params: linkParams, response: { 200: messageResponse } } },
    async (request) => {
      await shareLinks.delete(currentActor(request), request.params.linkId);
      return { message: render('Link deleted', await linesFor(request)) };
    },
  );

  app.get(
    '/share-links/:linkId/events',
    {
      schema: {
        tags,
        summary: "A link's access log, newest first: what was opened, previewed, downloaded or uploaded, when, from which network",
        params: linkParams,
        querystring: eventsQuery,
        response: { 200: eventsResponse },
      },
    },
    async (request) => shareLinks.events(currentActor(request), request.params.linkId, request.query.page),
  );
};
