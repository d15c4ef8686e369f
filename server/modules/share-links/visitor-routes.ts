import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { render, ValidationError } from '../../lib/errors.js';
import { isSecure } from '../../plugins/cookies.js';
import { linesFor } from '../../plugins/request-lines.js';
import { contentDisposition, protectiveHeaders } from '../drive/http.js';
import { OCTET_STREAM, previewMode } from '../drive/kinds.js';
import { downloadQuery } from '../drive/schemas.js';
import { sendStored, sendThumbnail } from '../drive/send-stored.js';
import { readFilePart } from '../uploads/multipart.js';
import { anonymiseAddress } from './address.js';
import { linkListQuery, linkListResponse, messageResponse, tokenEntryParams, tokenParams, unlockBody, visitorLinkResponse } from './schemas.js';
import { UNLOCK_TTL_MS, type Visit } from './visitor.js';

const tags = ['share links'];
export const LINK_COOKIE = 'link_access';
export const SHARED_LINKS_PATH = '/api/v1/shared-links';
const fileResponses = { 200: z.any().describe('The bytes'), 206: z.any().describe('A byte range of them'), 304: z.null().describe('Not modified') };

/** The unlock cookie lives under the link's own path: it is sent with that link's calls and no other link's. */
const cookiePath = (token: string) => `${SHARED_LINKS_PATH}/${token}`;

function visitOf(request: FastifyRequest & { params: { token: string } }): Visit {
  return { token: request.params.token, unlockCookie: request.cookies[LINK_COOKIE], address: anonymiseAddress(request.ip) };
}

/** The first request of a download (no Range, or one from byte 0) is the one that counts against a limit. */
const startsDownload = (request: FastifyRequest) => {
  const range = request.headers.range;
  return !range || /^bytes=0-/.test(range.trim());
};

/**
 * Sharing by link, the visitor's side: guests, signed-in people and the
 * installed app alike. Every call opens the link afresh and acts as the link
 * (a LinkActor), so the access policy answers for it as for any other caller.
 */
export const shareLinkVisitorRoutes: FastifyPluginAsyncZod = async (app) => {
  const { shareLinkVisitors, drive, uploads } = app.services;

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
        summary: 'Download a file, or a selection as a zip (counts against a download limit)',
        params: tokenParams,
        querystring: downloadQuery,
        response: fileResponses,
      },
    },
    async (request, reply) => {
      const result = await shareLinkVisitors.download(visitOf(request), request.query.hashes, startsDownload(request), (error) =>
        request.log.warn({ err: error }, 'zip download through a link failed'),
      );
      if (result.kind === 'file')
        return sendStored(request, reply, drive.files, result.entry, result.key, {
          inline: false,
          contentType: result.entry.mime ?? OCTET_STREAM,
          download: true,
        });
      protectiveHeaders(reply, true);
      reply.header('Content-Disposition', contentDisposition('attachment', result.name));
      return reply.type('application/zip').send(result.stream);
    },
  );

  app.get(
    '/shared-links/:token/preview/:id',
    {
      compress: false,
      schema: { tags, summary: 'Show a file of the link, sandboxed exactly like the drive’s previews', params: tokenEntryParams, response: fileResponses },
    },
    async (request, reply) => {
      const { entry, key } = await shareLinkVisitors.preview(visitOf(request), request.params.id, startsDownload(request));
      return sendStored(request, reply, drive.files, entry, key, previewMode(entry.mime ?? OCTET_STREAM, entry.type));
    },
  );

  app.get(
    '/shared-links/:token/thumbnail/:id',
    { compress: false, schema: { tags, summary: 'A thumbnail of an image in the link', params: tokenEntryParams, response: { 200: z.any() } } },
    async (request, reply) => {
      return sendThumbnail(reply, drive, await shareLinkVisitors.thumbnailOf(visitOf(request), request.params.id));
    },
  );

  app.post(
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
        uploads.storePlain(actor, null, { contentLength: Number(request.headers['content-length']), readFile: (limit) => readFilePart(request, limit) }, place),
      );
      return { message: render('Uploaded', await linesFor(request)) };
    },
  );
};
