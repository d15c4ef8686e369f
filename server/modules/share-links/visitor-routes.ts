import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { render, ValidationError } from '../../lib/errors.js';
import { isSecure } from '../../plugins/cookies.js';
import { acceptMultipart } from '../../plugins/multipart.js';
import { linesFor } from '../../plugins/request-lines.js';
import { downloadQuery } from '../drive/schemas.js';
import { sendDownload, sendStored, sendThumbnail } from '../drive/send-stored.js';
import { readFilePart } from '../uploads/multipart.js';
import { anonymiseAddress } from './address.js';
import { linkListQuery, linkListResponse, messageResponse, tokenEntryParams, tokenParams, unlockBody, visitorLinkResponse } from './schemas.js';
import { FETCH_COOKIE } from './fetch-grants.js';
import { UNLOCK_TTL_MS, type Fetched, type Visit } from './visitor.js';
import type { Drive } from '../drive/index.js';
import type { UploadsService } from '../uploads/service.js';
import type { ShareLinkVisitors } from './visitor.js';

export interface VisitorRouteDeps {
  shareLinkVisitors: ShareLinkVisitors;
  drive: Pick<Drive, 'files' | 'thumbnails'>;
  uploads: Pick<UploadsService, 'storePlain'>;
}

const tags = ['share links'];
export const LINK_COOKIE = 'link_access';
export const SHARED_LINKS_PATH = '/api/v1/shared-links';
const fileResponses = { 200: z.any().describe('The bytes'), 206: z.any().describe('A byte range of them'), 304: z.null().describe('Not modified') };

/** The unlock cookie lives under the link's own path: it is sent with that link's calls and no other link's. */
const cookiePath = (token: string) => `${SHARED_LINKS_PATH}/${token}`;

function visitOf(request: FastifyRequest & { params: { token: string } }): Visit {
  return {
    token: request.params.token,
    unlockCookie: request.cookies[LINK_COOKIE],
    fetchCookie: request.cookies[FETCH_COOKIE],
    fromStart: !request.headers.range || /^bytes=0-/.test(request.headers.range.trim()),
    address: anonymiseAddress(request.ip),
  };
}

/** A counted fetch hands the browser its grant on the file, so resuming or re-fetching it is not counted again. */
function setFetchGrant(request: FastifyRequest & { params: { token: string } }, reply: FastifyReply, { grant }: Fetched<object>) {
  if (!grant) return;
  reply.setCookie(FETCH_COOKIE, grant.value, {
    path: cookiePath(request.params.token),
    httpOnly: true,
    sameSite: 'lax',
    secure: isSecure(request),
    maxAge: grant.maxAgeSeconds,
  });
}

/**
 * Sharing by link, the visitor's side: guests, signed-in people and the
 * installed app alike. Every call opens the link afresh and acts as the link
 * (a LinkActor), so the access policy answers for it as for any other caller.
 */
export const shareLinkVisitorRoutes: FastifyPluginAsyncZod<VisitorRouteDeps> = async (app, { shareLinkVisitors, drive, uploads }) => {
  app.get(
    '/shared-links/:token',
    { schema: { tags, summary: 'What a link is; once unlocked, what it shows (a visit)', params: tokenParams, response: { 200: visitorLinkResponse } } },
    async (request) => ({ link: await shareLinkVisitors.info(visitOf(request)) }),
  );

  app.post(
    '/shared-links/:token/password',
    {
      schema: {
        tags,
        summary: "Give a link's password (throttled per link and visitor): the answer sets an unlock cookie for this link only",
        params: tokenParams,
        body: unlockBody,
        response: { 200: visitorLinkResponse },
      },
    },
    async (request, reply) => {
      const { cookie, link } = await shareLinkVisitors.unlock(visitOf(request), request.body.password);
      if (cookie) {
        reply.setCookie(LINK_COOKIE, cookie, {
          path: cookiePath(request.params.token),
          httpOnly: true,
          sameSite: 'lax',
          secure: isSecure(request),
          maxAge: UNLOCK_TTL_MS / 1000,
        });
      }
      return { link };
    },
  );

  app.get(
    '/shared-links/:token/entries',
    { schema: { tags, summary: 'A folder inside the link', params: tokenParams, querystring: linkListQuery, response: { 200: linkListResponse } } },
    async (request) => shareLinkVisitors.list(visitOf(request), request.query),
  );

  app.get(
    '/shared-links/:token/download',
    {
      compress: false,
      schema: {
        tags,
        summary: 'Download a file, or a selection as a zip (counts against a download limit once per visitor and file)',
        params: tokenParams,
        querystring: downloadQuery,
        response: fileResponses,
      },
    },
    async (request, reply) => {
      const result = await shareLinkVisitors.download(visitOf(request), request.query.hashes, (error) =>
        request.log.warn({ err: error }, 'zip download through a link failed'),
      );
      setFetchGrant(request, reply, result);
      return sendDownload(request, reply, drive.files, result);
    },
  );

  app.get(
    '/shared-links/:token/preview/:id',
    {
      compress: false,
      schema: {
        tags,
        summary: 'Show a file of the link inline (kinds with a preview only; counts against a download limit as a download does)',
        params: tokenEntryParams,
        response: fileResponses,
      },
    },
    async (request, reply) => {
      const preview = await shareLinkVisitors.preview(visitOf(request), request.params.id);
      setFetchGrant(request, reply, preview);
      return sendStored(request, reply, drive.files, preview.entry, preview.key, preview.mode);
    },
  );

  app.get(
    '/shared-links/:token/thumbnail/:id',
    { compress: false, schema: { tags, summary: 'A thumbnail of an image in the link', params: tokenEntryParams, response: { 200: z.any() } } },
    async (request, reply) => {
      return sendThumbnail(reply, drive, await shareLinkVisitors.thumbnailOf(visitOf(request), request.params.id));
    },
  );

  await app.register(async (scope) => {
    await acceptMultipart(scope);
    scope.withTypeProvider<ZodTypeProvider>().post(
      '/shared-links/:token/file-entries',
      {
        schema: {
          tags,
          summary: 'Upload into a file drop (multipart, the file part last): it lands in the linked folder under a free name, within the owner’s space',
          params: tokenParams,
          response: { 200: messageResponse },
        },
      },
      async (request) => {
        if (!request.isMultipart()) throw ValidationError.field('file', 'Send the file as multipart/form-data.');
        await shareLinkVisitors.upload(visitOf(request), (actor, place) =>
          uploads.storePlain(
            actor,
            null,
            { contentLength: Number(request.headers['content-length']), readFile: (limit) => readFilePart(request, limit) },
            place,
          ),
        );
        return { message: render('Uploaded', await linesFor(request)) };
      },
    );
  });
};
