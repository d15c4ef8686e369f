import fs from 'node:fs';
import path from 'node:path';
import { FileStore } from '@tus/file-store';
import { Server, type Upload } from '@tus/server';
import { HttpError, render } from '../../lib/errors.js';
import { randomToken } from '../../lib/tokens.js';
import type { UserWithAccess } from '../users/repository.js';
import type { UploadsService } from './service.js';
import { tooLarge } from './restrictions.js';

export const TUS_PATH = '/api/v1/tus/upload';
export const TUS_EXPIRY_MS = 24 * 60 * 60 * 1000;
/** Set by our route before tus sees the request: who is calling (tus hooks get a web Request copy). */
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

/**
 * Resumable uploads (tus 1.0) through @tus/server and its file store. Every
 * upload id is bound to the user who created it (through its quota
 * reservation); another user's id answers 404. Restrictions and the quota
 * are checked from the declared length before a byte is stored.
 */
export function createTusServer(uploads: UploadsService, directory: string, callers: Map<string, UserWithAccess>) {
  fs.mkdirSync(directory, { recursive: true });
  const store = new FileStore({ directory, expirationPeriodInMilliseconds: TUS_EXPIRY_MS });
  const callerOf = (req: Request) => callers.get(req.headers.get(CALLER_HEADER) ?? '') ?? null;

  const server = new Server({
    path: TUS_PATH,
    datastore: store,
    relativeLocation: true,
    namingFunction: () => randomToken(24),
    maxSize: async () => (await uploads.rules()).maxSize ?? 0,
    async onIncomingRequest(req, uploadId) {
      const user = callerOf(req);
      if (!user) throw fail(401, 'Unauthenticated.');
      if (req.method === 'POST' || req.method === 'OPTIONS' || !uploadId) return;
      const owner = await uploads.quota.ownerOf(uploadId);
      if (!owner || owner.user_id !== user.id) throw fail(404, 'This upload does not exist.');
    },
    async onUploadCreate(req, upload: Upload) {
      const user = callerOf(req)!;
      const name = upload.metadata?.name ?? '';
      if (!name) throw fail(422, 'The upload needs a file name.', 'name');
      if (upload.sizeIsDeferred || upload.size === undefined) throw fail(422, 'The upload length must be declared.', 'file');
      try {
        await uploads.check({ name, size: upload.size, mime: upload.metadata?.mime ?? null });
        uploads.folderSegments(upload.metadata?.relativePath);
        await uploads.quota.reserve(user.id, await uploads.available(user), upload.id, upload.size, 'tus');
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
    server,
    store,
    /** The finished upload's file on disk, or why it cannot be used yet. */
    async completed(id: string): Promise<{ upload: Upload; file: string }> {
      const upload = await store.getUpload(id);
      if (upload.size === undefined || upload.offset !== upload.size) {
        throw new HttpError(409, 'This upload is not complete yet.', undefined, 'CONFLICT');
      }
      return { upload, file: path.join(directory, id) };
    },
    /** Drops an upload's bookkeeping, and its bytes if they are still here. */
    async forget(id: string): Promise<void> {
      await fs.promises.rm(path.join(directory, id), { force: true });
      await store.configstore.delete(id);
    },
    cleanUpExpired: () => server.cleanUpExpiredUploads(),
  };
}

export type TusUploads = ReturnType<typeof createTusServer>;
