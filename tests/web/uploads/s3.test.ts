import { describe, expect, it } from 'vitest';
import {
  chooseMethod,
  concurrencyLimit,
  missingPartBatches,
  partRange,
  readUploadSettings,
  S3_PARALLEL_PARTS,
  s3PartSize,
} from '../../../src/offline/queues/uploads/rules';
import { s3MultipartTransport, s3SimpleTransport } from '../../../src/offline/queues/uploads/s3-transport';
import type { S3UploadRef } from '../../../src/offline/queues/uploads/types';
import { makeEntry, makeItem } from './helpers';

const MB = 1024 * 1024;

describe('S3 sizing and batching rules (spec §9)', () => {
  it('sends 100 MB and more as multipart, less as one presigned PUT, only when the server uploads directly to S3', () => {
    const direct = { disableTus: false, directS3: true };
    expect(chooseMethod(100 * MB - 1, direct)).toBe('s3Simple');
    expect(chooseMethod(100 * MB, direct)).toBe('s3Multipart');
    expect(chooseMethod(1, direct)).toBe('s3Simple');
    expect(chooseMethod(100 * MB, { disableTus: false, directS3: false })).toBe('tus');
    expect(readUploadSettings({ direct_s3: true }).directS3).toBe(true);
    expect(readUploadSettings({}).directS3).toBe(false);
  });

  it('makes parts of at least 20 MB, or size / 10000 when that is larger', () => {
    expect(s3PartSize(120 * MB)).toBe(20 * MB);
    expect(s3PartSize(1)).toBe(20 * MB);
    expect(s3PartSize(300 * 1024 * MB)).toBe(Math.ceil((300 * 1024 * MB) / 10_000));
    expect(partRange(6, 20 * MB, 120 * MB)).toEqual({ start: 100 * MB, end: 120 * MB });
    expect(partRange(7, 20 * MB, 125 * MB)).toEqual({ start: 120 * MB, end: 125 * MB });
  });

  it('signs the missing parts in batches of 10', () => {
    expect(missingPartBatches(25, [1, 2, 3])).toEqual([
      [4, 5, 6, 7, 8, 9, 10, 11, 12, 13],
      [14, 15, 16, 17, 18, 19, 20, 21, 22, 23],
      [24, 25],
    ]);
    expect(missingPartBatches(3, [1, 2, 3])).toEqual([]);
  });

  it('runs one upload at a time while a multipart upload is queued, three otherwise', () => {
    expect(concurrencyLimit([{ status: 'pending', relativePath: null, method: 's3Multipart' }])).toBe(1);
    expect(concurrencyLimit([{ status: 'pending', relativePath: null, method: 's3Simple' }])).toBe(3);
  });
});

/** The app's S3 calls and the bucket's part PUTs, answered in memory; what the client did is recorded. */
function fakeS3(options: { size: number; partSize: number; stored?: number[]; failPart?: { part: number; times: number }; refuseComplete?: boolean }) {
  const log: string[] = [];
  const puts = new Map<number, number>();
  const partsGot = new Map<number, string>();
  let inFlight = 0;
  let maxInFlight = 0;
  let failures = 0;
  for (const n of options.stored ?? []) partsGot.set(n, `"etag-${n}"`);
  const partCount = Math.ceil(options.size / options.partSize);
  const fetchFn: typeof fetch = async (input, init = {}) => {
    const url = String(input);
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : null;
    const path = new URL(url).pathname.replace('/api/v1/', '');
    if (url.startsWith('http://bucket.test/')) {
      const part = Number(new URL(url).searchParams.get('partNumber'));
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 2));
      inFlight -= 1;
      if (options.failPart?.part === part && failures < options.failPart.times) {
        failures += 1;
        throw new TypeError('network down');
      }
      expect(init.credentials).toBeUndefined();
      puts.set(part, (init.body as Blob).size);
      partsGot.set(part, `"etag-${part}"`);
      return new Response(null, { status: 200, headers: { ETag: `"etag-${part}"` } });
    }
    log.push(path);
    switch (path) {
      case 's3/multipart/create':
        return Response.json({ key: 'k1', uploadId: 'u1', partSize: options.partSize, partCount });
      case 's3/multipart/get-uploaded-parts':
        return Response.json({
          parts: [...partsGot].map(([PartNumber, ETag]) => ({
            PartNumber,
            ETag,
            Size: Math.min(options.partSize, options.size - (PartNumber - 1) * options.partSize),
          })),
          partSize: options.partSize,
          partCount,
        });
      case 's3/multipart/batch-sign-part-urls':
        expect((body!.partNumbers as number[]).length).toBeLessThanOrEqual(10);
        return Response.json({ urls: (body!.partNumbers as number[]).map((n) => ({ partNumber: n, url: `http://bucket.test/k1?partNumber=${n}` })) });
      case 's3/multipart/complete':
        if (options.refuseComplete) return Response.json({ message: 'The parts do not match what was uploaded.' }, { status: 422 });
        expect(body!.parts).toEqual([...Array(partCount).keys()].map((i) => ({ PartNumber: i + 1, ETag: `"etag-${i + 1}"` })));
        return Response.json({ key: 'k1' });
      case 's3/multipart/abort':
        return new Response(null, { status: 204 });
      case 's3/entries':
        return Response.json({ fileEntry: makeEntry('big.bin') });
      default:
        return Response.json({ message: 'Not found.' }, { status: 404 });
    }
  };
  return { fetchFn, log, puts, maxInFlight: () => maxInFlight };
}

const deps = (fetchFn: typeof fetch) => ({ fetch: fetchFn, origin: 'http://drive.test', getXsrfToken: () => Promise.resolve('tok') });

describe('S3 multipart upload from the queue', () => {
  it('creates, signs in batches, sends at most 5 parts at once, completes and makes the entry; the record is stored', async () => {
    const s3 = fakeS3({ size: 250, partSize: 10 });
    const refs: (S3UploadRef | null)[] = [];
    const progress: number[] = [];
    const item = makeItem({ name: 'big.bin', size: 250, method: 's3Multipart' });
    const handle = s3MultipartTransport(deps(s3.fetchFn))(item, {
      blob: new Blob([new Uint8Array(250)]),
      onProgress: (bytes) => progress.push(bytes),
      onUploadUrl: () => {},
      onS3Upload: (ref) => refs.push(ref),
    });
    expect((await handle.done).name).toBe('big.bin');
    expect(refs).toEqual([{ key: 'k1', uploadId: 'u1' }]);
    expect(s3.log.filter((p) => p === 's3/multipart/batch-sign-part-urls')).toHaveLength(3);
    expect(s3.puts.size).toBe(25);
    expect(s3.maxInFlight()).toBeLessThanOrEqual(S3_PARALLEL_PARTS);
    expect(s3.maxInFlight()).toBeGreaterThan(1);
    expect(progress.at(-1)).toBe(250);
    expect(s3.log.slice(-2)).toEqual(['s3/multipart/complete', 's3/entries']);
  });

  it('resumes from the stored record: asks for the uploaded parts and sends only the others', async () => {
    const s3 = fakeS3({ size: 45, partSize: 10, stored: [1, 2, 3] });
    const item = makeItem({ name: 'big.bin', size: 45, method: 's3Multipart', s3Upload: { key: 'k1', uploadId: 'u1' } });
    const progress: number[] = [];
    const handle = s3MultipartTransport(deps(s3.fetchFn))(item, {
      blob: new Blob([new Uint8Array(45)]),
      onProgress: (bytes) => progress.push(bytes),
      onUploadUrl: () => {},
      onS3Upload: () => {},
    });
    await handle.done;
    expect(s3.log[0]).toBe('s3/multipart/get-uploaded-parts');
    expect(s3.log).not.toContain('s3/multipart/create');
    expect([...s3.puts.keys()].sort()).toEqual([4, 5]);
    expect(s3.puts.get(5)).toBe(5);
    expect(progress[0]).toBe(30);
  });

  it('retries a failing part up to 3 times', async () => {
    const s3 = fakeS3({ size: 20, partSize: 10, failPart: { part: 2, times: 2 } });
    const item = makeItem({ name: 'big.bin', size: 20, method: 's3Multipart' });
    const handle = s3MultipartTransport(deps(s3.fetchFn))(item, {
      blob: new Blob([new Uint8Array(20)]),
      onProgress: () => {},
      onUploadUrl: () => {},
      onS3Upload: () => {},
    });
    await handle.done;
    expect(s3.puts.get(2)).toBe(10);
  }, 10_000);

  it('aborts the upload (releasing its space) and reports the server message when the server refuses a step', async () => {
    const s3 = fakeS3({ size: 20, partSize: 10, refuseComplete: true });
    const refs: (S3UploadRef | null)[] = [];
    const item = makeItem({ name: 'big.bin', size: 20, method: 's3Multipart' });
    const handle = s3MultipartTransport(deps(s3.fetchFn))(item, {
      blob: new Blob([new Uint8Array(20)]),
      onProgress: () => {},
      onUploadUrl: () => {},
      onS3Upload: (ref) => refs.push(ref),
    });
    await expect(handle.done).rejects.toMatchObject({ kind: 'http', status: 422, userMessage: 'The parts do not match what was uploaded.' });
    expect(s3.log.at(-1)).toBe('s3/multipart/abort');
    expect(refs.at(-1)).toBeNull();
  });

  it('keeps the upload for a retry when the network goes away', async () => {
    const s3 = fakeS3({ size: 20, partSize: 10, failPart: { part: 1, times: 10 } });
    const item = makeItem({ name: 'big.bin', size: 20, method: 's3Multipart' });
    const handle = s3MultipartTransport(deps(s3.fetchFn))(item, {
      blob: new Blob([new Uint8Array(20)]),
      onProgress: () => {},
      onUploadUrl: () => {},
      onS3Upload: () => {},
    });
    await expect(handle.done).rejects.toMatchObject({ kind: 'network' });
    expect(s3.log).not.toContain('s3/multipart/abort');
  }, 15_000);
});

describe('S3 simple upload from the queue', () => {
  it('presigns, PUTs the file with the signed type and no cookies, then makes the entry', async () => {
    const calls: { url: string; init: RequestInit }[] = [];
    const fetchFn: typeof fetch = (input, init = {}) => {
      calls.push({ url: String(input), init });
      const url = String(input);
      if (url.endsWith('/s3/simple/presign'))
        return Promise.resolve(Response.json({ url: 'http://bucket.test/k?sig=1', key: 'k', acl: 'private', contentType: 'text/plain' }));
      if (url.startsWith('http://bucket.test/')) return Promise.resolve(new Response(null, { status: 200 }));
      return Promise.resolve(Response.json({ fileEntry: makeEntry('a.txt') }));
    };
    const item = makeItem({ name: 'a.txt', size: 3, mime: 'text/plain', method: 's3Simple', folderHash: 'f1', onConflict: 'replace' });
    const handle = s3SimpleTransport(deps(fetchFn))(item, { blob: new Blob(['abc']), onProgress: () => {}, onUploadUrl: () => {}, onS3Upload: () => {} });
    expect((await handle.done).name).toBe('a.txt');
    // The answer to a taken name travels with the signing and with the finish (which decides the name).
    expect(JSON.parse(String(calls[0]!.init.body))).toMatchObject({
      filename: 'a.txt',
      size: 3,
      mime: 'text/plain',
      metadata: { parentId: 'f1', onConflict: 'replace' },
    });
    expect(calls[1]!.init).toMatchObject({ method: 'PUT', headers: { 'Content-Type': 'text/plain' } });
    expect(calls[1]!.init.credentials).toBeUndefined();
    expect(JSON.parse(String(calls[2]!.init.body))).toMatchObject({ filename: 'k', metadata: { parentId: 'f1', onConflict: 'replace' } });
  });
});
