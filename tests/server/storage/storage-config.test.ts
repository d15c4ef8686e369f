import { describe, expect, it } from 'vitest';
import type { StorageConfig } from '../../../server/config.js';
import { directUploadTarget, downloadSigner, type Disks } from '../../../server/storage/disks.js';
import { LocalDisk } from '../../../server/storage/local-disk.js';
import { createS3Client, S3Disk } from '../../../server/storage/s3-disk.js';

const s3Settings = { endpoint: 'http://127.0.0.1:1', region: 'us-east-1', bucket: 'b', accessKeyId: 'k', secretAccessKey: 's', forcePathStyle: true };
const s3 = (directUpload: boolean, downloads: 'stream' | 'redirect'): StorageConfig => ({
  driver: 's3',
  s3: s3Settings,
  directUpload,
  downloads,
  urlExpiresSeconds: 60,
});
const local = new LocalDisk('/nonexistent');
const bucket = new S3Disk(createS3Client(s3Settings), 'b', 'drive');
const onS3: Disks = { drive: bucket, avatars: local, branding: local, s3: bucket };
const onDisk: Disks = { drive: local, avatars: local, branding: local, s3: null };

describe('storage configuration (issue 31.2: moved out of services.ts)', () => {
  it('redirects downloads only on S3 with STORAGE_DOWNLOADS=redirect', () => {
    expect(downloadSigner(s3(false, 'redirect'), onS3)).toBeTypeOf('function');
    expect(downloadSigner(s3(false, 'stream'), onS3)).toBeNull();
    expect(downloadSigner({ driver: 'local' }, onDisk)).toBeNull();
  });

  it('offers the bucket for direct uploads only on S3 with direct uploads on', () => {
    expect(directUploadTarget(s3(true, 'stream'), onS3)).toEqual({ disk: bucket, urlExpiresSeconds: 60 });
    expect(directUploadTarget(s3(false, 'stream'), onS3)).toEqual({ disk: null, urlExpiresSeconds: 60 });
    expect(directUploadTarget({ driver: 'local' }, onDisk)).toEqual({ disk: null, urlExpiresSeconds: 0 });
  });
});
