import path from 'node:path';
import type { StorageConfig } from '../config.js';
import type { Disk } from './disk.js';
import { LocalDisk } from './local-disk.js';
import { createS3Client, S3Disk } from './s3-disk.js';
import { tracedDisk } from './traced-disk.js';

export interface Disks {
  /** File bytes and thumbnails. */
  drive: Disk;
  avatars: Disk;
  /** Logos and favicon (admin appearance): apart from the drive's, whose integrity checks would take them for stray bytes. */
  branding: Disk;
  /** The drive's disk when it is S3 (direct uploads and redirected downloads need it), else null. */
  s3: S3Disk | null;
}

/** The disks the configuration names: folders under the storage folder, or prefixes in one bucket. */
export function createDisks(storage: StorageConfig, storageDir: string): Disks {
  if (storage.driver === 'local') {
    return {
      drive: tracedDisk(new LocalDisk(path.join(storageDir, 'drive')), 'drive', 'local'),
      avatars: tracedDisk(new LocalDisk(path.join(storageDir, 'avatars')), 'avatars', 'local'),
      branding: tracedDisk(new LocalDisk(path.join(storageDir, 'branding')), 'branding', 'local'),
      s3: null,
    };
  }
  const client = createS3Client(storage.s3);
  const drive = tracedDisk(new S3Disk(client, storage.s3.bucket, 'drive'), 'drive', 's3');
  return {
    drive,
    avatars: tracedDisk(new S3Disk(client, storage.s3.bucket, 'avatars'), 'avatars', 's3'),
    branding: tracedDisk(new S3Disk(client, storage.s3.bucket, 'branding'), 'branding', 's3'),
    s3: drive,
  };
}

/** Downloads as short-lived presigned GETs of the drive's bucket. */
export const signedDownloads =
  (disk: S3Disk, expiresIn: number) =>
  (key: string, options: { contentDisposition: string; contentType: string }): Promise<string> =>
    disk.signedGet(key, { ...options, expiresIn });

/** Downloads redirected to the bucket when the drive is on S3 and STORAGE_DOWNLOADS=redirect; else streamed (null). */
export function downloadSigner(storage: StorageConfig, disks: Disks) {
  return disks.s3 && storage.driver === 's3' && storage.downloads === 'redirect' ? signedDownloads(disks.s3, storage.urlExpiresSeconds) : null;
}

/** The bucket browsers upload to directly, when the drive is on S3 with direct uploads on; else none. */
export function directUploadTarget(storage: StorageConfig, disks: Disks): { disk: S3Disk | null; urlExpiresSeconds: number } {
  if (storage.driver !== 's3') return { disk: null, urlExpiresSeconds: 0 };
  return { disk: storage.directUpload ? disks.s3 : null, urlExpiresSeconds: storage.urlExpiresSeconds };
}

/**
 * Where browsers talk to the bucket (presigned PUTs and redirected GETs), for
 * the pages' CSP: the configured endpoint, else AWS's virtual-host and
 * path-style addresses of the bucket. None when the browser never goes there.
 */
export function storeOrigins(storage: StorageConfig): string[] {
  if (storage.driver !== 's3' || (!storage.directUpload && storage.downloads !== 'redirect')) return [];
  const { endpoint, bucket, region, forcePathStyle } = storage.s3;
  if (endpoint) {
    const url = new URL(endpoint);
    return forcePathStyle ? [url.origin] : [url.origin, `${url.protocol}//${bucket}.${url.host}`];
  }
  return [`https://${bucket}.s3.${region}.amazonaws.com`, `https://s3.${region}.amazonaws.com`];
}
