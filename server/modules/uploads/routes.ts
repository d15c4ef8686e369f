import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpError, NotFound, ValidationError } from '../../lib/errors.js';
import { randomToken } from '../../lib/tokens.js';
import { currentUser, requireUser } from '../../plugins/guards.js';
import { scopeFor } from '../drive/access.js';
import { fileEntrySchema } from '../drive/schemas.js';
import type { UserWithAccess } from '../users/repository.js';
import { CALLER_HEADER, TUS_PATH } from './tus.js';

const fileEntryResponse = z.object({ fileEntry: fileEntrySchema });

/**
 * Uploads (spec §7 "Upload calls"): a plain multipart POST for small files,
 * and tus 1.0 for resumable ones, finished by `tus/entries`.
 */
export const uploadRoutes: FastifyPluginAsyncZod = async (app) => {
  const { uploads, tus } = app.services;
  const callers = app.services.tusCallers;

  // tus PATCH bodies are for @tus/server to read from the socket, never for Fastify to buffer.
  app.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null));

  app.addHook('onRequest', requireUser);

  app.post(
    '/file-entries',
    {
      schema: {
        tags: ['uploads'],
        summary: 'Upload a file (multipart: parentId, relativePath?, then file — the file part last)',
        response: { 200: fileEntryResponse },
      },
    },
    async (request) => {
      const user = currentUser(request);
      if (!request.isMultipart()) throw ValidationError.field('file', 'Send the file as multipart/form-data.');
      const length = Number(request.headers['content-length']);
      if (!Number.isFinite(length) || length <= 0) throw new HttpError(411, 'The upload must declare its Content-Length.');
      const rules = await uploads.rules();
      // Multipart framing makes the body a little larger than the file: the reservation errs on the safe side.
      const key = `plain-${randomToken(18)}`;
      await uploads.quota.reserve(user.id, await uploads.available(user), key, length, 'plain');
      try {
        const fields: Record<string, string> = {};
        // One byte over the limit reaches our own guard, which refuses with the spec's message.
        for await (const part of request.parts({ limits: { fileSize: rules.maxSize === null ? Infinity : rules.maxSize + 1, files: 1, fields: 10 } })) {
          if (part.type === 'field') {
            if (typeof part.value === 'string') fields[part.fieldname] = part.value;
            continue;
          }
          const name = part.filename;
          await uploads.check({ name, size: null, mime: part.mimetype || null });
          const entry = await uploads.store(
            user,
            scopeFor(user, request.ctx),
            { parentId: fields.parentId || null, relativePath: fields.relativePath },
            { name, stream: part.file, maxBytes: rules.maxSize },
          );
          return { fileEntry: entry };
        }
        throw ValidationError.field('file', 'The file field is required.');
      } finally {
        await uploads.quota.release(key);
      }
    },
  );

  const handleTus = async (request: FastifyRequest, reply: FastifyReply) => {
    const version = request.headers['tus-resumable'];
    // The protocol wants 412 with Tus-Version for a version we do not speak (@tus/server answers 400).
    if (request.method !== 'OPTIONS' && version !== undefined && version !== '1.0.0') {
      return reply.code(412).header('Tus-Version', '1.0.0').send({ message: `This server speaks tus 1.0.0, not ${String(version)}.` });
    }
    const id = randomToken(16);
    callers.set(id, currentUser(request));
    // Our value replaces anything a client sent under this name (tus reads the raw header list).
    request.raw.headers[CALLER_HEADER] = id;
    const raw = request.raw.rawHeaders;
    for (let i = raw.length - 2; i >= 0; i -= 2) if (raw[i]!.toLowerCase() === CALLER_HEADER) raw.splice(i, 2);
    raw.push(CALLER_HEADER, id);
    reply.hijack();
    try {
      await tus.server.handle(request.raw, reply.raw);
    } finally {
      callers.delete(id);
    }
  };
  const tusRoute = {
    schema: { hide: true },
    // Before Fastify would try to parse a body: tus PATCH bodies have exactly one type.
    onRequest: async (request: FastifyRequest, reply: FastifyReply) => {
      if (request.method === 'PATCH' && request.headers['content-type']?.split(';')[0]?.trim() !== 'application/offset+octet-stream') {
        return reply.code(415).send({ message: 'A tus PATCH must have Content-Type: application/offset+octet-stream.' });
      }
    },
  };
  app.route({ method: ['POST', 'OPTIONS'], url: TUS_PATH.replace('/api/v1', ''), ...tusRoute, handler: handleTus });
  app.route({ method: ['HEAD', 'PATCH', 'DELETE', 'OPTIONS'], url: `${TUS_PATH.replace('/api/v1', '')}/:id`, ...tusRoute, handler: handleTus });

  app.post(
    '/tus/entries',
    {
      schema: {
        tags: ['uploads'],
        summary: 'Turn a finished resumable upload into a file entry',
        body: z.object({ uploadKey: z.string().min(1).max(128).regex(/^[A-Za-z0-9_-]+$/) }),
        response: { 200: fileEntryResponse },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { uploadKey } = request.body;
      const owner = await uploads.quota.ownerOf(uploadKey);
      if (!owner || owner.user_id !== user.id) throw NotFound('This upload does not exist.');
      const { upload, file } = await tus.completed(uploadKey);
      const meta = upload.metadata ?? {};
      const entry = await uploads.store(
        user,
        scopeFor(user, request.ctx),
        { parentId: meta.parentId || null, relativePath: meta.relativePath },
        { name: meta.name ?? 'Untitled', localFile: file, size: upload.size },
      );
      // The bytes now belong to the drive; this drops the upload's bookkeeping (its .json).
      await tus.forget(uploadKey);
      await uploads.quota.release(uploadKey);
      return { fileEntry: entry };
    },
  );
};

export type Callers = Map<string, UserWithAccess>;
