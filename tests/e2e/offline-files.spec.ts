import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { CountingProxy } from './counting-proxy';
import { entry } from './drive-helpers';
import { E2E_PORT } from './env';
import { currentUserId, ready } from './upload-helpers';

// Issue 39 "Make available offline": a pinned folder's files open with the
// network cut (the browser offline, and the server out of reach while the
// browser says it is online), a pinned .docx is edited offline and saved when
// the network returns, an unpinned file says plainly it is not on the device,
// and what changed on the server while the browser was away is fresh after it
// reconnects — checked in Cache Storage and IndexedDB, not only on screen.

// 1×1 PNG and a one-page PDF: real files the server previews and thumbnails.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

async function xsrf(page: Page): Promise<Record<string, string>> {
  const token = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  return { 'X-XSRF-TOKEN': decodeURIComponent(token) };
}

async function api<T>(page: Page, path: string, body: unknown): Promise<T> {
  const response = await page.request.post(`/api/v1/${path}`, { data: body, headers: await xsrf(page) });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as T;
}

interface Entry {
  id: string;
}

async function folder(page: Page, name: string, parentId: string | null = null): Promise<string> {
  return (await api<{ folder: Entry }>(page, 'folders', { name, parentId })).folder.id;
}

async function upload(page: Page, parentId: string | null, name: string, mimeType: string, buffer: Buffer): Promise<string> {
  const multipart: Record<string, string | { name: string; mimeType: string; buffer: Buffer }> = { file: { name, mimeType, buffer } };
  if (parentId) multipart.parentId = parentId;
  const response = await page.request.post('/api/v1/file-entries', { multipart, headers: await xsrf(page) });
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()) as { fileEntry: Entry }).fileEntry.id;
}

const paragraph = (text: string) => [{ kind: 'paragraph', runs: [{ type: 'text', text, fontAttributes: {} }] }];

async function documentWith(page: Page, parentId: string, text: string): Promise<string> {
  const id = (await api<{ fileEntry: Entry }>(page, 'documents', { parentId })).fileEntry.id;
  const { version } = await api<{ version: string }>(page, 'file-entries/read', { id });
  await api(page, 'file-entries/save', { id, version, content: paragraph(text) });
  return id;
}

async function serverText(page: Page, id: string): Promise<string> {
  const { data } = await api<{ data: { runs: { text?: string }[] }[] }>(page, 'file-entries/read', { id });
  return data.map((section) => section.runs.map((run) => run.text ?? '').join('')).join('\n');
}

interface DeviceState {
  /** entryId → the version whose bytes are stored (null: listed, no bytes). */
  entries: Record<string, string | null>;
  /** Every key in the user's Cache Storage cache. */
  cached: string[];
}

/** What the device holds for the user, read straight from IndexedDB and Cache Storage. */
async function deviceState(page: Page, userId: string): Promise<DeviceState> {
  return page.evaluate(async (uid) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open(`drive-user-${uid}`);
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const rows = db.objectStoreNames.contains('offlineEntries')
      ? await new Promise<{ entryId: string; version: string | null; storedAt: number | null }[]>((resolve, reject) => {
          const request = db.transaction('offlineEntries').objectStore('offlineEntries').getAll();
          request.onsuccess = () => resolve(request.result as never);
          request.onerror = () => reject(request.error);
        })
      : [];
    db.close();
    const cache = await caches.open(`drive-offline-files-${uid}`);
    const cached = (await cache.keys()).map((request) => new URL(request.url).pathname).sort();
    return { entries: Object.fromEntries(rows.map((row) => [row.entryId, row.storedAt ? row.version : null])), cached };
  }, userId);
}

async function pinFromMenu(page: Page, name: string): Promise<void> {
  await entry(page, name).click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Make available offline' }).click();
}

const badge = (page: Page, name: string) => entry(page, name).getByTestId('offline-badge');

/** GET an address from the page, as the preview and download links do (the worker answers it). */
async function fetched(page: Page, url: string): Promise<{ status: number; type: string | null; disposition: string | null; head: string }> {
  return page.evaluate(async (address) => {
    const response = await fetch(address);
    const head = new TextDecoder().decode((await response.arrayBuffer()).slice(0, 5));
    return { status: response.status, type: response.headers.get('Content-Type'), disposition: response.headers.get('Content-Disposition'), head };
  }, url);
}

const proxied = test.extend<{ serverProxy: CountingProxy }>({
  // eslint-disable-next-line no-empty-pattern
  serverProxy: async ({}, use) => {
    const proxy = await CountingProxy.start({ host: '127.0.0.1', port: E2E_PORT });
    await use(proxy);
    await proxy.stop();
  },
  // Pages, the worker and page.request reach the server through the proxy, whose cut() makes it unreachable.
  baseURL: async ({ serverProxy }, use) => {
    await use(serverProxy.origin);
  },
});

proxied(
  'a pinned folder opens with the network cut: image, PDF, and a .docx edited offline and saved when the network returns',
  async ({ page, context, serverProxy: proxy }) => {
    proxied.setTimeout(120_000);
    await ready(page);
    const userId = await currentUserId(page);
    const trip = await folder(page, 'Trip');
    const image = await upload(page, trip, 'beach.png', 'image/png', PNG);
    const pdf = await upload(page, trip, 'guide.pdf', 'application/pdf', PDF);
    const doc = await documentWith(page, trip, 'Packing list');
    const elsewhere = await upload(page, null, 'elsewhere.pdf', 'application/pdf', PDF);
    // The files were made through the API: the reloaded page lists them once the server has answered.
    const listed = page.waitForResponse((response) => response.url().includes('/api/v1/drive/file-entries?') && response.ok());
    await page.reload();
    await listed;
    // The folder's own listing is seen once online, as a user would open it before pinning from the parent.
    await expect(entry(page, 'Trip')).toBeVisible();

    await pinFromMenu(page, 'Trip');
    await expect(badge(page, 'Trip')).toHaveAttribute('data-state', 'up-to-date', { timeout: 30_000 });
    const pinned = await deviceState(page, userId);
    expect(Object.keys(pinned.entries).sort()).toEqual([doc, image, pdf, trip].sort());
    expect(pinned.entries[image]).toBeTruthy();
    expect(pinned.entries[pdf]).toBeTruthy();
    expect(pinned.entries[doc]).toBeTruthy();
    expect(pinned.cached).toEqual(
      [
        `/__offline/files/${pinned.entries[image]}`,
        `/__offline/files/${pinned.entries[pdf]}`,
        `/__offline/files/${pinned.entries[doc]}`,
        `/__offline/thumbnails/${image}/${pinned.entries[image]}`,
      ].sort(),
    );

    // The server out of reach while the browser still says it is online: the worker answers from the device.
    proxy.cut();
    expect(await fetched(page, `/api/v1/file-entries/${pdf}/preview`)).toMatchObject({ status: 200, type: 'application/pdf', head: '%PDF-' });
    // And the browser offline too.
    await context.setOffline(true);
    await expect(page.getByTestId('offline-indicator')).toBeVisible();

    await entry(page, 'Trip').dblclick();
    await expect(entry(page, 'beach.png')).toBeVisible();
    await expect(badge(page, 'beach.png')).toHaveAttribute('data-state', 'up-to-date');
    await entry(page, 'beach.png').dblclick();
    const preview = page.getByRole('dialog', { name: 'Preview' });
    const img = preview.getByRole('img', { name: 'beach.png' });
    await expect.poll(() => img.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth)).toBe(1);
    await page.keyboard.press('Escape');

    await entry(page, 'guide.pdf').dblclick();
    await expect(preview.locator('iframe[title="guide.pdf"]')).toBeVisible();
    await expect(preview.getByTestId('not-available-offline')).toHaveCount(0);
    await page.keyboard.press('Escape');
    expect(await fetched(page, `/api/v1/file-entries/${pdf}/preview`)).toMatchObject({ status: 200, type: 'application/pdf', head: '%PDF-' });
    const download = await fetched(page, `/api/v1/file-entries/download?hashes=${pdf}`);
    expect(download).toMatchObject({ status: 200, head: '%PDF-' });
    expect(download.disposition).toMatch(/^attachment; filename="guide.pdf"/);

    // A file outside every pin says so, and can be pinned for when the network returns.
    await page.goto('/drive');
    await entry(page, 'elsewhere.pdf').dblclick();
    await expect(preview.getByTestId('not-available-offline')).toContainText("This file isn't available offline");
    await preview.getByRole('button', { name: 'Make available offline next time' }).click();
    await expect(preview.getByText('It will be made available offline when the network returns.')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(badge(page, 'elsewhere.pdf')).toHaveAttribute('data-state', 'waiting');

    // The pinned .docx opens in the editor (never opened on this device before), is edited, and the save waits.
    await page.goto(`/doc/${doc}`);
    const editor = page.locator('.ql-editor');
    await expect(editor).toContainText('Packing list');
    await editor.click();
    await page.keyboard.press('End');
    await page.keyboard.type(' and a towel');
    await page.keyboard.press('Control+s');
    const status = page.getByTestId('save-status');
    await expect(status).toHaveText('Saved on this device, will sync when online');

    proxy.restore();
    await context.setOffline(false);
    await expect(status).toHaveText('Saved', { timeout: 30_000 });
    expect(await serverText(page, doc)).toBe('Packing list and a towel');
    // The file pinned offline is fetched now that the network is back.
    await expect.poll(async () => (await deviceState(page, userId)).entries[elsewhere], { timeout: 30_000 }).toBe(pinned.entries[pdf]);
    // The same bytes under two entries are stored once.
    expect((await deviceState(page, userId)).cached.filter((key) => key === `/__offline/files/${pinned.entries[pdf]}`)).toHaveLength(1);
  },
);

test('what changed on the server while the browser was offline is fresh after it reconnects, and what was deleted leaves the device', async ({
  page,
  context,
}) => {
  test.setTimeout(90_000);
  await ready(page);
  const userId = await currentUserId(page);
  const desk = await folder(page, 'Desk');
  const doc = await documentWith(page, desk, 'First draft');
  const gone = await upload(page, desk, 'gone.txt', 'text/plain', Buffer.from('soon deleted'));
  const kept = await upload(page, desk, 'kept.txt', 'text/plain', Buffer.from('stays as it is'));
  await page.reload();

  // Pinned from the details panel this time.
  await entry(page, 'Desk').click();
  await page.getByRole('button', { name: 'Details' }).click();
  await page.getByTestId('offline-details').getByRole('button', { name: 'Make available offline' }).click();
  await expect(badge(page, 'Desk')).toHaveAttribute('data-state', 'up-to-date', { timeout: 30_000 });
  const before = await deviceState(page, userId);
  expect(before.entries[gone]).toBeTruthy();
  expect(before.cached).toContain(`/__offline/files/${before.entries[doc]}`);

  await context.setOffline(true);
  await expect(page.getByTestId('offline-indicator')).toBeVisible();
  // Someone changes the document and deletes a file meanwhile (page.request is not the browser's network).
  const { version } = await api<{ version: string }>(page, 'file-entries/read', { id: doc });
  await api(page, 'file-entries/save', { id: doc, version, content: paragraph('Second draft') });
  await api(page, 'file-entries/delete', { entryIds: [gone], deleteForever: true });
  const { version: newVersion } = await api<{ version: string }>(page, 'file-entries/read', { id: doc });
  expect(await deviceState(page, userId)).toEqual(before);

  await context.setOffline(false);
  // The sync writes the manifest's rows before it fetches the new bytes and lets the old ones go: the device is
  // settled only when both hold, so the whole state is polled, not the first row to change.
  const docVersion = newVersion.replace(/"/g, '');
  await expect
    .poll(
      async () => {
        const { entries, cached } = await deviceState(page, userId);
        return { doc: entries[doc], gone: entries[gone], kept: entries[kept], cached };
      },
      { timeout: 30_000 },
    )
    .toEqual({
      doc: docVersion,
      gone: undefined,
      kept: before.entries[kept],
      cached: [`/__offline/files/${docVersion}`, `/__offline/files/${before.entries[kept]}`].sort(),
    });
  // The open folder's listing shows what the sync changed, without a reload.
  await entry(page, 'Desk').dblclick();
  await expect(entry(page, 'kept.txt')).toBeVisible();
  await expect(entry(page, 'gone.txt')).toHaveCount(0);
});

test('a multi-selection is pinned at once, and removing the offline copy removes its bytes', async ({ page }) => {
  await ready(page);
  const userId = await currentUserId(page);
  await upload(page, null, 'a.txt', 'text/plain', Buffer.from('aaa'));
  const b = await upload(page, null, 'b.txt', 'text/plain', Buffer.from('bbb'));
  await page.reload();
  await entry(page, 'a.txt').click();
  await entry(page, 'b.txt').click({ modifiers: ['Control'] });
  await page.getByRole('toolbar', { name: 'Toolbar' }).getByRole('button', { name: 'Make available offline' }).click();
  await expect(badge(page, 'a.txt')).toHaveAttribute('data-state', 'up-to-date', { timeout: 30_000 });
  await expect(badge(page, 'b.txt')).toHaveAttribute('data-state', 'up-to-date', { timeout: 30_000 });
  expect((await deviceState(page, userId)).cached).toHaveLength(2);

  await pinFromMenuRemove(page, 'a.txt');
  await expect(badge(page, 'a.txt')).toHaveCount(0);
  await expect.poll(async () => Object.keys((await deviceState(page, userId)).entries)).toEqual([b]);
  expect((await deviceState(page, userId)).cached).toHaveLength(1);
});

async function pinFromMenuRemove(page: Page, name: string): Promise<void> {
  await entry(page, name).click();
  await entry(page, name).click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Remove offline copy' }).click();
}
