import fs from 'node:fs';
import path from 'node:path';
import type { Upload } from '@tus/server';
import { Conflict, NotFound } from '../../lib/errors.js';
import { HashingFileStore, type KnownDigest } from './hashing-store.js';

export const TUS_EXPIRY_MS = 24 * 60 * 60 * 1000;
export const UPLOAD_NOT_FOUND = 'This upload does not exist.';

/** The tus file store and what the app does with its files once an upload is complete. */
export function createTusFiles(directory: string) {
  fs.mkdirSync(directory, { recursive: true });
  const store = new HashingFileStore({ directory, expirationPeriodInMilliseconds: TUS_EXPIRY_MS });
  return {
    store,
    /** The finished upload's file on disk, or why it cannot be used: gone (404) or not complete yet (409). */
    async completed(id: string): Promise<{ upload: Upload; file: string; digest: KnownDigest | null }> {
      let upload: Upload;
      try {
        upload = await store.getUpload(id);
      } catch {
        // The store answers tus's own errors (FILE_NOT_FOUND and the like): for this call they all mean gone.
        throw NotFound(UPLOAD_NOT_FOUND);
      }
      if (upload.size === undefined || upload.offset !== upload.size) throw Conflict('This upload is not complete yet.');
      return { upload, file: path.join(directory, id), digest: store.digest(id, upload.size) };
    },
    /** Drops an upload's bookkeeping, and its bytes if they are still here. */
    async forget(id: string): Promise<void> {
      store.drop(id);
      await fs.promises.rm(path.join(directory, id), { force: true });
      await store.configstore.delete(id);
    },
  };
}

export type TusFiles = ReturnType<typeof createTusFiles>;
