import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config.js';
import { contentSecurityPolicy } from '../../../server/plugins/page-headers.js';
import { storeOrigins } from '../../../server/storage/disks.js';

const storage = (env: Record<string, string>) => loadConfig({ DATA_DIR: '/tmp/x', STORAGE_DRIVER: 's3', S3_BUCKET: 'files', ...env }).storage;

/** The pages' CSP lets the browser reach the bucket only when it has to (direct uploads, redirected downloads). */
describe('the S3 store in the pages CSP', () => {
  it('names the endpoint, or AWS addresses of the bucket, while direct uploads or redirects are on', () => {
    expect(storeOrigins(storage({ S3_ENDPOINT: 'http://127.0.0.1:4570', S3_FORCE_PATH_STYLE: 'true' }))).toEqual(['http://127.0.0.1:4570']);
    expect(storeOrigins(storage({ S3_ENDPOINT: 'https://s3.example.com' }))).toEqual(['https://s3.example.com', 'https://files.s3.example.com']);
    expect(storeOrigins(storage({ S3_REGION: 'eu-west-1' }))).toEqual(['https://files.s3.eu-west-1.amazonaws.com', 'https://s3.eu-west-1.amazonaws.com']);
    expect(storeOrigins(storage({ S3_DIRECT_UPLOAD: 'false' }))).toEqual([]);
    expect(storeOrigins(storage({ S3_DIRECT_UPLOAD: 'false', S3_DOWNLOADS: 'redirect' }))).toHaveLength(2);
    expect(storeOrigins(loadConfig({ DATA_DIR: '/tmp/x' }).storage)).toEqual([]);
  });

  it('adds them to connect-src, img-src and media-src only', () => {
    const csp = contentSecurityPolicy({ humanCheck: false, storeOrigins: ['https://s3.example.com'] });
    expect(csp).toContain("connect-src 'self' https://s3.example.com");
    expect(csp).toContain("media-src 'self' blob: https://s3.example.com");
    expect(csp).toContain("script-src 'self';");
    expect(contentSecurityPolicy({ humanCheck: false })).toContain("connect-src 'self';");
  });

  it('refuses STORAGE_DRIVER=s3 without a bucket', () => {
    expect(() => loadConfig({ DATA_DIR: '/tmp/x', STORAGE_DRIVER: 's3' })).toThrow(/S3_BUCKET/);
  });
});
