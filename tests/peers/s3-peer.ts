import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { s3PeerEnv } from './s3-peer-env.js';

/**
 * A real S3 peer for the tests: @20minutes/s3rver (it checks SigV4 on headers
 * and presigned URLs, and their expiry), plus a test-only add-on for the two
 * calls it lacks, ListParts (`GET ?uploadId`) and AbortMultipartUpload
 * (`DELETE ?uploadId`), answered from its own on-disk layout
 * (`<dir>/<bucket>/._S3rver_uploads/<uploadId>/<partNumber>` + `.md5`). The
 * add-on runs s3rver's own authentication first, so those calls are signed
 * and checked like every other.
 */
const require = createRequire(import.meta.url);

interface KoaContext {
  method: string;
  mountPath?: string;
  state: Record<string, unknown>;
  path: string;
  query: Record<string, string | undefined>;
  params: Record<string, string | undefined>;
  body: unknown;
  status: number;
  store: { rootDirectory: string };
}
type Next = () => Promise<void>;
type Middleware = (ctx: KoaContext, next: Next) => Promise<void>;
interface S3rverApp {
  middleware: Middleware[];
  run(): Promise<{ port: number; address: string }>;
  close(): Promise<void>;
}
type S3ErrorClass = new (code: string, message?: string, detail?: Record<string, unknown>) => Error;

const S3rver = require('@20minutes/s3rver') as new (options: Record<string, unknown>) => S3rverApp;
const authentication = require('@20minutes/s3rver/lib/middleware/authentication.js') as () => Middleware;
const S3Error = require('@20minutes/s3rver/lib/models/error.js') as S3ErrorClass;

export { PEER_CREDENTIALS } from './s3-peer-env.js';

/** Browsers' direct PUTs (simple and part uploads) need CORS, and must be able to read each part's ETag. */
const CORS = `<CORSConfiguration>
  <CORSRule>
    <AllowedOrigin>*</AllowedOrigin>
    <AllowedMethod>GET</AllowedMethod>
    <AllowedMethod>PUT</AllowedMethod>
    <AllowedMethod>HEAD</AllowedMethod>
    <AllowedHeader>*</AllowedHeader>
    <ExposeHeader>ETag</ExposeHeader>
    <MaxAgeSeconds>3000</MaxAgeSeconds>
  </CORSRule>
</CORSConfiguration>`;

export interface S3Peer {
  endpoint: string;
  bucket: string;
  directory: string;
  /** The environment that points the server's S3 disk at this peer. */
  env: Record<string, string>;
  close(): Promise<void>;
}

function uploadDirOf(ctx: KoaContext, bucket: string, uploadId: string): string {
  if (!/^[A-Za-z0-9]+$/.test(uploadId)) throw new S3Error('NoSuchUpload', 'The specified upload does not exist.', { UploadId: uploadId });
  return path.join(ctx.store.rootDirectory, bucket, '._S3rver_uploads', uploadId);
}

async function requireUpload(ctx: KoaContext, bucket: string, key: string, uploadId: string): Promise<string> {
  const dir = uploadDirOf(ctx, bucket, uploadId);
  const storedKey = await fs.readFile(path.join(dir, 'key'), 'utf8').catch(() => null);
  if (storedKey !== key) throw new S3Error('NoSuchUpload', 'The specified upload does not exist.', { UploadId: uploadId });
  return dir;
}

const partsAddOn = (): Middleware => {
  const authenticate = authentication();
  return async (ctx, next) => {
    if (/^\/[^/]+\/$/.test(ctx.path)) {
      // s3rver signs a bucket request as `/bucket`, the SDK as sent (`/bucket/`, as S3 does); its
      // vhost branch is the one that appends the mount path, so that reproduces the path as sent.
      ctx.state.vhost = true;
      ctx.mountPath = '/';
      return next();
    }
    const match = /^\/([^/]+)\/(.+)$/.exec(ctx.path);
    const uploadId = ctx.query.uploadId;
    if (!match || uploadId === undefined || (ctx.method !== 'GET' && ctx.method !== 'DELETE')) return next();
    const [, bucket, rawKey] = match;
    const key = decodeURIComponent(rawKey!);
    ctx.params = { ...ctx.params, bucket, key };
    await authenticate(ctx, async () => {
      const dir = await requireUpload(ctx, bucket!, key, uploadId);
      if (ctx.method === 'DELETE') {
        await fs.rm(dir, { recursive: true, force: true });
        ctx.status = 204;
        return;
      }
      const marker = Number(ctx.query['part-number-marker'] ?? 0);
      const maxParts = Math.min(1000, Number(ctx.query['max-parts'] ?? 1000));
      const numbers = (await fs.readdir(dir))
        .filter((name) => /^\d+$/.test(name))
        .map(Number)
        .filter((n) => n > marker)
        .sort((a, b) => a - b);
      const page = numbers.slice(0, maxParts);
      const parts = await Promise.all(
        page.map(async (n) => {
          const file = path.join(dir, String(n));
          const [stat, md5] = await Promise.all([fs.stat(file), fs.readFile(`${file}.md5`, 'utf8')]);
          return { PartNumber: n, LastModified: stat.mtime.toISOString(), ETag: JSON.stringify(md5.trim()), Size: stat.size };
        }),
      );
      const truncated = numbers.length > page.length;
      ctx.body = {
        ListPartsResult: {
          '@': { '@_xmlns': 'http://s3.amazonaws.com/doc/2006-03-01/' },
          Bucket: bucket,
          Key: key,
          UploadId: uploadId,
          PartNumberMarker: marker,
          ...(truncated ? { NextPartNumberMarker: page.at(-1) } : {}),
          MaxParts: maxParts,
          IsTruncated: truncated,
          StorageClass: 'STANDARD',
          ...(parts.length ? { Part: parts } : {}),
        },
      };
    });
  };
};

/** Starts the peer on 127.0.0.1 (port 0 picks a free one) with one bucket, CORS on. */
export async function startS3Peer(options: { port?: number; bucket?: string; directory?: string } = {}): Promise<S3Peer> {
  const bucket = options.bucket ?? 'drive-test';
  const directory = options.directory ?? (await fs.mkdtemp(path.join(os.tmpdir(), 's3-peer-')));
  const server = new S3rver({
    address: '127.0.0.1',
    port: options.port ?? 0,
    silent: true,
    directory,
    // Path-style only: a vhost guess from the Host header must never route a request.
    vhostBuckets: false,
    configureBuckets: [{ name: bucket, configs: [Buffer.from(CORS)] }],
  });
  // Before the router (the last middleware), after s3rver's XML encoder and vhost handling.
  server.middleware.splice(server.middleware.length - 1, 0, partsAddOn());
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  let closed = false;
  return {
    endpoint,
    bucket,
    directory,
    env: s3PeerEnv(endpoint, bucket),
    // Twice is fine: a test that takes the bucket away (an outage) still lets its app's close() tidy up.
    async close() {
      if (closed) return;
      closed = true;
      await server.close();
      if (!options.directory) await fs.rm(directory, { recursive: true, force: true });
    },
  };
}
