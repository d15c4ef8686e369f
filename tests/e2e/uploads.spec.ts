import { createHash } from 'node:crypto';
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import type { UploadItem, UploadStatus } from '../../src/offline/queues/uploads/types';
import { queuedUpload } from '../fixtures/upload-item';
import { currentUserId, kick, MB, putQueued, ready } from './upload-helpers';

// The worker's side of the queue, end to end against the real server. The
// page hands items over exactly as the page client does (IndexedDB first,
// then a message to the worker); the React side is covered in tests/web.

interface FileSpec {
  name: string;
  size: number;
  relativePath?: string;
  chunkSize?: number;
}

/** The byte at position i of a test file: deterministic, so the test can hash it in Node too. */
const byteAt = (seed: number, i: number) => (i * 31 + seed) & 0xff;

function expectedSha256(spec: FileSpec, seed: number): string {
  const bytes = Buffer.alloc(spec.size);
  for (let i = 0; i < spec.size; i++) bytes[i] = byteAt(seed, i);
  return createHash('sha256').update(bytes).digest('hex');
}

function itemFor(spec: FileSpec, userId: string, index: number): UploadItem {
  const now = Date.now() + index;
  return queuedUpload({
    id: `e2e-${now}-${index}-${spec.name}`,
    userId,
    name: spec.name,
    size: spec.size,
    relativePath: spec.relativePath ?? null,
    method: spec.size >= 4 * MB ? 'tus' : 'plain',
    chunkSize: spec.chunkSize ?? 5 * MB,
    createdAt: now,
    updatedAt: now,
    lastModified: now,
  });
}

/** What the page client does: the items and their bytes into IndexedDB, then a word to the worker. */
async function enqueue(page: Page, specs: FileSpec[], options: { kick?: boolean } = {}): Promise<UploadItem[]> {
  const userId = await currentUserId(page);
  const items = specs.map((spec, i) => itemFor(spec, userId, i));
  await putQueued(
    page,
    items.map((item, index) => ({ item, bytes: { kind: 'linear' as const, seed: index } })),
  );
  if (options.kick ?? true) await kick(page, userId);
  return items;
}

/** The items' statuses as the worker last wrote them to IndexedDB. */
async function statuses(page: Page, ids: string[]): Promise<(UploadStatus | undefined)[]> {
  return page.evaluate(async (ids) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('drive-uploads');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const store = db.transaction('items').objectStore('items');
    const found = await Promise.all(
      ids.map(
        (id) =>
          new Promise<{ status: UploadStatus } | undefined>((resolve) => {
            const request = store.get(id);
            request.onsuccess = () => resolve(request.result as { status: UploadStatus } | undefined);
          }),
      ),
    );
    db.close();
    return found.map((item) => item?.status);
  }, ids);
}

async function rootNames(page: Page): Promise<string[]> {
  const response = await page.request.get('/api/v1/drive/file-entries?folderId=0&perPage=100');
  const body = (await response.json()) as { pagination: { data: { name: string }[] } };
  return body.pagination.data.map((entry) => entry.name);
}

test('small files upload through the worker and appear in the drive', async ({ page }) => {
  await ready(page);
  const items = await enqueue(page, [
    { name: 'notes.txt', size: 1200 },
    { name: 'todo.txt', size: 300 },
  ]);
  await expect
    .poll(
      () =>
        statuses(
          page,
          items.map((i) => i.id),
        ),
      { timeout: 15_000 },
    )
    .toEqual(['completed', 'completed']);
  expect(await rootNames(page)).toEqual(expect.arrayContaining(['notes.txt', 'todo.txt']));
});

test('a dropped folder keeps its structure', async ({ page }) => {
  await ready(page);
  const items = await enqueue(page, [
    { name: 'a.txt', size: 10, relativePath: 'Album/a.txt' },
    { name: 'b.txt', size: 20, relativePath: 'Album/2024/b.txt' },
    { name: 'c.txt', size: 30, relativePath: 'Album/2024/c.txt' },
  ]);
  await expect
    .poll(
      () =>
        statuses(
          page,
          items.map((i) => i.id),
        ),
      { timeout: 15_000 },
    )
    .toEqual(['completed', 'completed', 'completed']);
  const names = await rootNames(page);
  expect(names).toContain('Album');
  expect(names.filter((n) => n === 'Album')).toHaveLength(1);
});

test('a file of 4 MB or more goes through tus in chunks and arrives byte for byte', async ({ page }) => {
  test.setTimeout(60_000);
  await ready(page);
  const spec = { name: 'big.bin', size: 6 * MB + 123, chunkSize: 2 * MB };
  const [item] = await enqueue(page, [spec]);
  await expect.poll(() => statuses(page, [item!.id]), { timeout: 45_000 }).toEqual(['completed']);
  const listing = (await (await page.request.get('/api/v1/drive/file-entries?folderId=0')).json()) as {
    pagination: { data: { name: string; hash: string }[] };
  };
  const stored = listing.pagination.data.find((entry) => entry.name === 'big.bin');
  expect(stored).toBeDefined();
  const download = await page.request.get(`/api/v1/file-entries/download?hashes=${stored!.hash}`);
  expect(download.ok()).toBe(true);
  const digest = createHash('sha256')
    .update(await download.body())
    .digest('hex');
  expect(digest).toBe(expectedSha256(spec, 0));
});

test('files queued offline survive a reload and upload when the network returns', async ({ page, context }) => {
  test.setTimeout(60_000);
  await ready(page);
  const userId = await currentUserId(page);
  await context.setOffline(true);
  const items = await enqueue(page, [
    { name: 'offline-1.txt', size: 500 },
    { name: 'offline-2.txt', size: 700 },
  ]);
  const ids = items.map((i) => i.id);
  await page.reload();
  // The worker is told while still offline: the items wait, they do not fail.
  await kick(page, userId);
  await page.waitForTimeout(1500);
  expect(await statuses(page, ids)).toEqual(['pending', 'pending']);

  await context.setOffline(false);
  await kick(page, userId);
  await expect.poll(() => statuses(page, ids), { timeout: 30_000 }).toEqual(['completed', 'completed']);
  expect(await rootNames(page)).toEqual(expect.arrayContaining(['offline-1.txt', 'offline-2.txt']));
});

test('files chosen with the Upload button appear in the folder without a reload', async ({ page }) => {
  await ready(page);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Upload', exact: true }).first().click();
  await (
    await chooser
  ).setFiles([
    { name: 'alpha.txt', mimeType: 'text/plain', buffer: Buffer.from('alpha') },
    { name: 'beta.txt', mimeType: 'text/plain', buffer: Buffer.from('beta beta') },
  ]);
  await expect(page.getByRole('option', { name: 'alpha.txt', exact: true })).toBeVisible();
  await expect(page.getByRole('option', { name: 'beta.txt', exact: true })).toBeVisible();
});

test('offline on a folder whose listing never loaded, the sidebar Upload still puts the file in that folder', async ({ page, context }) => {
  test.setTimeout(60_000);
  await ready(page);
  const xsrf = (await context.cookies()).find((c) => c.name === 'XSRF-TOKEN')!.value;
  const created = await page.request.post('/api/v1/folders', { headers: { 'X-XSRF-TOKEN': xsrf }, data: { name: 'Trip', parentId: null } });
  const folderHash = (await created.json()).folder.hash as string;

  // The folder link opens offline: the shell comes from the worker, the listing never loaded.
  await context.setOffline(true);
  await page.goto(`/drive/folders/${folderHash}`);
  await expect(page.getByTestId('offline-indicator')).toBeVisible();
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('navigation', { name: 'Drive' }).getByRole('button', { name: 'Upload', exact: true }).click();
  await (await chooser).setFiles([{ name: 'ticket.txt', mimeType: 'text/plain', buffer: Buffer.from('seat 12A') }]);
  await context.setOffline(false);

  const inFolder = async () => {
    const response = await page.request.get(`/api/v1/drive/file-entries?folderId=${folderHash}`);
    return ((await response.json()) as { pagination: { data: { name: string }[] } }).pagination.data.map((entry) => entry.name);
  };
  await expect.poll(inFolder, { timeout: 30_000 }).toEqual(['ticket.txt']);
  expect(await rootNames(page)).not.toContain('ticket.txt');
});

test('finished uploads are cleared when the app is next opened', async ({ page }) => {
  await ready(page);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Upload', exact: true }).first().click();
  await (await chooser).setFiles([{ name: 'once.txt', mimeType: 'text/plain', buffer: Buffer.from('once') }]);
  const panel = page.getByRole('region', { name: 'Uploads' });
  await expect(panel.getByRole('heading')).toHaveText('1 upload complete');
  await page.reload();
  await expect(page.getByRole('option', { name: 'once.txt', exact: true })).toBeVisible();
  await expect(panel).toBeHidden();
});
