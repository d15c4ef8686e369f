import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { entry, registerFreshUser } from './drive-helpers';
import { waitForServiceWorker } from './helpers';

// The document editor end to end: a .docx made in the drive, edited in
// Chromium online and offline, and a conflict with a change made on the
// server meanwhile — never losing an edit.

async function api(page: Page, path: string, body: unknown) {
  const xsrf = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const response = await page.request.post(`/api/v1/${path}`, { data: body, headers: { 'X-XSRF-TOKEN': decodeURIComponent(xsrf) } });
  expect(response.ok(), await response.text()).toBe(true);
  return response.json();
}

interface Run {
  type: string;
  text?: string;
}
const serverText = async (page: Page, id: string): Promise<string> => {
  const { data } = (await api(page, 'file-entries/read', { id })) as { data: { runs: Run[] }[] };
  return data.map((section) => section.runs.map((run) => run.text ?? '').join('')).join('\n');
};

const status = (page: Page) => page.getByTestId('save-status');
const editor = (page: Page) => page.locator('.ql-editor');
const entryIdOf = (page: Page) => new URL(page.url()).pathname.split('/').pop()!;

async function newDocument(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'New document' }).click();
  await expect(page).toHaveURL(/\/doc\/[^/]+$/);
  await expect(editor(page)).toHaveAttribute('contenteditable', 'true');
  return entryIdOf(page);
}

test('a new document opens from the drive, is edited, and saves', async ({ page }) => {
  await registerFreshUser(page);
  const id = await newDocument(page);
  await expect(page.getByTestId('document-name')).toHaveValue('Untitled document');
  await editor(page).click();
  await page.keyboard.type('Hello from Chromium');
  await page.keyboard.press('Control+s');
  await expect(status(page)).toHaveText('Saved');
  expect(await serverText(page, id)).toContain('Hello from Chromium');

  // Double-clicking the .docx in the drive opens it in the editor again.
  await page.goto('/drive');
  await entry(page, 'Untitled document.docx').dblclick();
  await expect(page).toHaveURL(new RegExp(`/doc/${id}$`));
  await expect(editor(page)).toContainText('Hello from Chromium');
});

test('offline edits are kept as a draft through a reload and saved when the network returns', async ({ page, context }) => {
  test.setTimeout(60_000);
  await registerFreshUser(page);
  await waitForServiceWorker(page);
  const id = await newDocument(page);
  await editor(page).click();
  await page.keyboard.type('Written online.');
  await page.keyboard.press('Control+s');
  await expect(status(page)).toHaveText('Saved');

  await context.setOffline(true);
  await editor(page).click();
  await page.keyboard.press('End');
  await page.keyboard.type(' Written offline.');
  await page.keyboard.press('Control+s');
  await expect(status(page)).toHaveText('Saved on this device, will sync when online');

  await page.reload();
  await expect(editor(page)).toContainText('Written online. Written offline.');
  await expect(status(page)).toHaveText('Saved on this device, will sync when online');

  await context.setOffline(false);
  await expect(status(page)).toHaveText('Saved', { timeout: 30_000 });
  expect(await serverText(page, id)).toContain('Written online. Written offline.');
});

test('a document opened before opens offline from the device', async ({ page, context }) => {
  await registerFreshUser(page);
  await waitForServiceWorker(page);
  const id = await newDocument(page);
  await editor(page).click();
  await page.keyboard.type('Kept for the train');
  await page.keyboard.press('Control+s');
  await expect(status(page)).toHaveText('Saved');
  await page.goto('/drive');

  await context.setOffline(true);
  await page.goto(`/doc/${id}`);
  await expect(editor(page)).toContainText('Kept for the train');
  await expect(page.getByTestId('document-name')).toHaveValue('Untitled document');
  await expect(page.getByTestId('document-error')).toHaveCount(0);
  await context.setOffline(false);
});

test('a change made on the server meanwhile turns the stale save into a conflict copy; both remain', async ({ page }) => {
  await registerFreshUser(page);
  const id = await newDocument(page);
  await editor(page).click();
  await page.keyboard.type('Mine');
  await page.keyboard.press('Control+s');
  await expect(status(page)).toHaveText('Saved');

  // Someone else saves a new version of the same file.
  const { version } = (await api(page, 'file-entries/read', { id })) as { version: string };
  await api(page, 'file-entries/save', { id, version, content: [{ kind: 'paragraph', runs: [{ type: 'text', text: 'Theirs', fontAttributes: {} }] }] });

  await editor(page).click();
  await page.keyboard.press('End');
  await page.keyboard.type(' and more of mine');
  await page.keyboard.press('Control+s');
  await expect(status(page)).toHaveText('Conflict: your version was saved as a copy');
  // The editor now shows the server's version; the local one is the copy beside it.
  await expect(editor(page)).toContainText('Theirs');
  expect(await serverText(page, id)).toBe('Theirs');

  await page.goto('/drive');
  const copy = page.getByRole('option', { name: /^Untitled document \(conflict \d{4}-\d{2}-\d{2} \d{2}\.\d{2}\)\.docx$/ });
  await expect(copy).toBeVisible();
  await copy.dblclick();
  await expect(editor(page)).toContainText('Mine and more of mine');
  await expect(entryIdOf(page)).not.toBe(id);
});

test('a file that is not a real Word document shows a clear error and stays as it was', async ({ page }) => {
  await registerFreshUser(page);
  const xsrf = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const upload = await page.request.post('/api/v1/file-entries', {
    headers: { 'X-XSRF-TOKEN': decodeURIComponent(xsrf) },
    multipart: { parentId: '0', file: { name: 'broken.docx', mimeType: 'application/octet-stream', buffer: Buffer.from('not a zip at all') } },
  });
  expect(upload.ok(), await upload.text()).toBe(true);
  const { fileEntry } = (await upload.json()) as { fileEntry: { hash: string } };
  await page.goto('/drive');
  await entry(page, 'broken.docx').dblclick();
  await expect(page).toHaveURL(new RegExp(`/doc/${fileEntry.hash}$`));
  await expect(page.getByTestId('document-error')).toHaveText('This document could not be read: it is damaged or not a Word document.');
  const download = await page.request.get(`/api/v1/file-entries/download?hashes=${fileEntry.hash}`);
  expect((await download.body()).toString()).toBe('not a zip at all');
});
