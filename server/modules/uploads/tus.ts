import type { IncomingMessage, ServerResponse } from 'node:http';
import { Server, type Locker, type Upload } from '@tus/server';
import { HttpError, render } from '../../lib/errors.js';
import { randomToken } from '../../lib/tokens.js';
import type { Actor } from '../access/actor.js';
import type { UploadsService } from './service.js';
import { tooLarge } from './restrictions.js';
import type { TusFiles } from './tus-files.js';

export const TUS_PATH = '/api/v1/tus/upload';
/** Set by `handle` before tus sees the request: who is calling (tus hooks get a web Request copy). */
export const CALLER_HEADER = 'x-drive-caller';

interface TusFailure {
  status_code: number;
  body: string;
}

const fail = (status: number, message: string, field?: string): TusFailure => ({
  status_code: status,
  body: JSON.stringify(field ? { message, errors: { [field]: [message] } } : { message }),
});

const toFailure = (error: unknown): TusFailure =>
  error instanceof HttpError ? { status_code: error.statusCode, body: JSON.stringify(error.body(null)) } : fail(500, 'There was an issue. Please try again.');

function metadataName(header: string | null): string {
  for (const pair of (header ?? '').split(',')) {
    const [key, value] = pair.trim().split(' ');
    if (key === 'name' && value) return Buffer.from(value, 'base64').toString('utf8');
  }
  return 'This file';
}

export interface TusCaller {
  actor: Actor;
  workspaceId: number | null;
}

/**
 * Resumable uploads (tus 1.0) through @tus/server and its file store. Every
 * upload id is bound to the user who created it (through its quota
 * reservation); another user's id answers 404. Restrictions and the quota
 * are checked from the declared length before a byte is stored.
 */
export function createTusServer(uploads: UploadsService, files: TusFiles, locker?: Locker) {
  const callers = new Map<string, TusCaller>();
  const callerOf = (req: Request) => callers.get(req.headers.get(CALLER_HEADER) ?? '') ?? null;

  const server = new Server({
    path: TUS_PATH,
    datastore: files.store,
    // Unset: @tus/server's MemoryLocker (one process). Scale-out passes the Redis locker (redis-locker.ts).
    ...(locker ? { locker } : {}),
    relativeLocation: true,
    namingFunction: () => randomToken(24),
    maxSize: async () => (await uploads.rules()).maxSize ?? 0,
    async onIncomingRequest(req, uploadId) {
      const caller = callerOf(req);
      if (!caller) throw fail(401, 'Unauthenticated.');
      if (req.method === 'POST' || req.method === 'OPTIONS' || !uploadId) return;
      try {
        await uploads.requireOwnUpload(caller.actor, uploadId);
        // A cancelled upload gives its space back now, not when the reservation would expire a day later.
        const method = req.headers.get('x-http-method-override')?.toUpperCase() ?? req.method;
        if (method === 'DELETE') await uploads.cancelled(uploadId);
      } catch (error) {
        throw toFailure(error);
      }
    },
    async onUploadCreate(req, upload: Upload) {
      const caller = callerOf(req)!;
      try {
        await uploads.startTus(caller.actor, caller.workspaceId, {
          id: upload.id,
          size: upload.size,
          sizeIsDeferred: upload.sizeIsDeferred,
          metadata: upload.metadata ?? {},
        });
      } catch (error) {
        throw toFailure(error);
      }
      return {};
    },
    async onResponseError(req, error) {
      // tus's own size check speaks its own words; answer in the spec's (§5).
      const status = 'status_code' in error ? error.status_code : 500;
      if (status === 413 && 'body' in error && /maximum size/i.test(error.body)) {
        const max = (await uploads.rules()).maxSize ?? 0;
        return fail(413, render(tooLarge(metadataName(req.headers.get('upload-metadata')), max)), 'file');
      }
      return undefined;
    },
  });

  return {
    /** Hands a request to tus on behalf of `caller`; the reply is tus's to write. */
    async handle(req: IncomingMessage, res: ServerResponse, caller: TusCaller): Promise<void> {
      const id = randomToken(16);
      callers.set(id, caller);
      // Our value replaces anything a client sent under this name (tus reads the raw header list).
      req.headers[CALLER_HEADER] = id;
      const raw = req.rawHeaders;
      for (let i = raw.length - 2; i >= 0; i -= 2) if (raw[i]!.toLowerCase() === CALLER_HEADER) raw.splice(i, 2);
      raw.push(CALLER_HEADER, id);
      try {
        await server.handle(req, res);
      } finally {
        callers.delete(id);
      }
    },
    cleanUpExpired: () => server.cleanUpExpiredUploads(),
  };
}

export type TusUploads = ReturnType<typeof createTusServer>;
