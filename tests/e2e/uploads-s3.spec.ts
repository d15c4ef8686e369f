import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { expect, test } from '@playwright/test';
import type { FileChooser, Page, Request, Route } from '@playwright/test';
import type { UploadItem } from '../../src/offline/queues/uploads/types';
import { E2E_S3_PEER } from './env';
import { downloadedSha256, MB, patternBytes, ready } from './upload-helpers';

// Direct uploads to S3 from the browser (spec §7, §9), end to end: the `s3`
// project's server keeps its files in the S3 peer (playwright.config.ts), and
// its bootstrap tells the page to send bytes to the bucket itself. Files are
// chosen with the Upload button, so the page picks the path (simple below
// 100 MB, multipart at or above) and the service worker does the sending.

const peerOrigin = new URL(E2E_S3_PEER.endpoint).origin;

/** A request the browser sent to the bucket (the peer), not to the app. */
const toPeer = (url: URL | string) => new URL(url).origin === peerOrigin;

/** The part number of a presigned UploadPart PUT, or null for any other request. */
function partNumberOf(request: Request): number | null {
  if (request.method() !== 'PUT' || !toPeer(request.url())) return null;
  const part = new URL(request.url()).searchParams.get('partNumber');
  return part === null ? null : Number(part);
}

async function chooseFiles(page: Page, files: Parameters<FileChooser['setFiles']>[0]): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Upload', exact: true }).first().click();
  await (await chooser).setFiles(files);
}

/** The queue's record of the file with this name, as the worker last wrote it to IndexedDB. */
async function storedByName(page: Page, name: string): Promise<UploadItem | undefined> {
  return page.evaluate(async (name) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('drive-uploads');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const items = await new Promise<UploadItem[]>((resolve, reject) => {
      const request = db.transaction('items').objectStore('items').getAll();
      request.onsuccess = () => resolve(request.result as UploadItem[]);
      request.onerror = () => reject(request.error);
    });
    db.close();
    return items.find((item) => item.name === name);
  }, name);
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

test('a small file goes to the bucket with one presigned PUT and downloads with the same sha256', async ({ page, context }) => {
  await ready(page);
  const puts: string[] = [];
  const api: string[] = [];
  context.on('request', (request) => {
    const url = new URL(request.url());
    if (toPeer(url) && request.method() === 'PUT') puts.push(request.url());
    if (url.pathname.startsWith('/api/v1/') && request.method() === 'POST') api.push(url.pathname);
  });
  const bytes = patternBytes(300 * 1024 + 7, 0x51);
  await chooseFiles(page, { name: 'small-s3.bin', mimeType: 'application/octet-stream', buffer: bytes });

  const panel = page.getByRole('region', { name: 'Uploads' });
  await expect(panel.getByRole('heading')).toHaveText('1 upload complete', { timeout: 30_000 });
  // One PUT straight to the bucket, signed (SigV4 in the query), and no multipart upload.
  expect(puts).toHaveLength(1);
  const put = new URL(puts[0]!);
  expect(put.searchParams.get('X-Amz-Signature')).toBeTruthy();
  expect(put.searchParams.has('uploadId')).toBe(false);
  expect(api.filter((path) => path.startsWith('/api/v1/s3/') || path.includes('tus') || path === '/api/v1/file-entries')).toEqual([
    '/api/v1/s3/simple/presign',
    '/api/v1/s3/entries',
  ]);
  await expect(page.getByRole('option', { name: 'small-s3.bin', exact: true })).toBeVisible();
  expect(await downloadedSha256(page, 'small-s3.bin')).toBe(sha256(bytes));
});

test.describe('a 120 MB file', () => {
  let dir: string;
  test.beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'drive-e2e-s3-file-'));
  });
  test.afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('goes through S3 multipart, is cut off by the network going, resumes after a reload from the stored record, and downloads with the same sha256', async ({
    page,
    context,
  }) => {
    // 120 MB into IndexedDB, six 20 MB parts to the peer and the download back: minutes on a slow 2-core machine.
    test.setTimeout(300_000);
    const name = 'large-s3.bin';
    const size = 120 * MB;
    const partSize = 20 * MB;
    const bytes = patternBytes(size, 0x53a1);
    const file = join(dir, name);
    await writeFile(file, bytes);
    const expected = sha256(bytes);

    await ready(page);
    const api: string[] = [];
    const partsSent: number[] = [];
    context.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/v1/s3/') && request.method() === 'POST') api.push(url.pathname.slice('/api/v1/s3/'.length));
    });
    context.on('response', (response) => {
      const part = partNumberOf(response.request());
      if (part !== null && response.ok()) partsSent.push(part);
    });

    // The network is slow after the first two parts: the others are held in
    // flight (at the browser's network layer) until the network goes.
    const held: Route[] = [];
    let networkGone = false;
    const holdLaterParts = async (route: Route) => {
      const part = partNumberOf(route.request());
      if (networkGone) return route.abort('internetdisconnected');
      if (part !== null && part > 2) {
        held.push(route);
        return;
      }
      return route.fallback();
    };
    await context.route(toPeer, holdLaterParts);

    await chooseFiles(page, file);
    const panel = page.getByRole('region', { name: 'Uploads' });
    const row = panel.getByRole('listitem', { name });
    // Parts 1 and 2 are in the bucket (40 of 120 MB, the panel's 33 %) and the other four wait in flight.
    await expect(row.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '33', { timeout: 120_000 });
    await expect.poll(() => held.length, { timeout: 30_000 }).toBe(4);
    expect(held.map((route) => partNumberOf(route.request()) ?? 0).sort((a, b) => a - b)).toEqual([3, 4, 5, 6]);
    const started = await storedByName(page, name);
    expect(started).toMatchObject({ method: 's3Multipart', status: 'inProgress', bytesUploaded: 2 * partSize });
    expect(started?.s3Upload?.uploadId).toBeTruthy();
    const record = started!.s3Upload!;

    // The network goes: the held parts die with it, and the retries find no network either.
    await context.setOffline(true);
    networkGone = true;
    for (const route of held.splice(0)) await route.abort('internetdisconnected');
    // The item waits for the network (not failed), with its multipart upload kept for a resume.
    await expect
      .poll(
        async () => {
          const stored = await storedByName(page, name);
          return { status: stored?.status, waitingForNetwork: stored?.waitingForNetwork, bytes: stored?.bytesUploaded, upload: stored?.s3Upload };
        },
        { timeout: 60_000 },
      )
      .toEqual({ status: 'pending', waitingForNetwork: true, bytes: 2 * partSize, upload: record });
    await context.unroute(toPeer, holdLaterParts);

    // The page is opened again while offline; its queue comes back from IndexedDB.
    await page.reload();
    await expect(row).toContainText('Waiting for network');
    const sentBeforeResume = [...partsSent].sort((a, b) => a - b);
    expect(sentBeforeResume).toEqual([1, 2]);

    // The network returns: the page's `online` kick resumes the upload from the stored record.
    const askedForParts = context.waitForEvent('request', {
      predicate: (request) => new URL(request.url()).pathname === '/api/v1/s3/multipart/get-uploaded-parts',
      timeout: 60_000,
    });
    await context.setOffline(false);
    expect((await askedForParts).postDataJSON()).toMatchObject({ key: record.key, uploadId: record.uploadId });
    await expect(panel.getByRole('heading')).toHaveText('1 upload complete', { timeout: 180_000 });

    // Only the four missing parts were sent again; the upload was never created twice.
    expect([...partsSent].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(api.filter((call) => call === 'multipart/create')).toHaveLength(1);
    expect(api).not.toContain('multipart/abort');
    expect(api.slice(-2)).toEqual(['multipart/complete', 'entries']);
    const done = await storedByName(page, name);
    expect(done).toMatchObject({ status: 'completed', s3Upload: null, bytesUploaded: size });

    expect(await downloadedSha256(page, name)).toBe(expected);
  });
});
