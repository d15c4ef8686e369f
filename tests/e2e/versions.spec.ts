import { createHash } from 'node:crypto';
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { entry, registerFreshUser, sidebar } from './drive-helpers';
import { waitForServiceWorker } from './helpers';
import { currentUserId, ready } from './upload-helpers';

// Issue 34 end to end: a document saved three times keeps its earlier texts
// as versions; restoring the first brings its text back into the editor (the
// version becomes the content again, so the list keeps its length), and the
// text it replaced is itself a version (restoring that one brings it back).
// An earlier version opens read-only in the editor. Then the trashed
// document's row says when it is deleted forever.

const status = (page: Page) => page.getByTestId('save-status');
const editor = (page: Page) => page.locator('.ql-editor');
const versions = (page: Page) => page.getByRole('region', { name: 'Versions' }).getByTestId('version');

/** The document's text on the server (what a save wrote). */
async function serverText(page: Page, id: string): Promise<string> {
  const xsrf = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const response = await page.request.post('/api/v1/file-entries/read', { data: { id }, headers: { 'X-XSRF-TOKEN': decodeURIComponent(xsrf) } });
  const { data } = (await response.json()) as { data: { runs: { text?: string }[] }[] };
  return data.map((section) => section.runs.map((run) => run.text ?? '').join('')).join('\n');
}

/** One save, finished: "Saved" can still be the previous save's status when the keys are sent, so the server is asked. */
async function saveAs(page: Page, id: string, text: string): Promise<void> {
  await editor(page).click();
  await page.keyboard.press('Control+a');
  await page.keyboard.type(text);
  await page.keyboard.press('Control+s');
  await expect.poll(() => serverText(page, id)).toBe(text);
  await expect(status(page)).toHaveText('Saved');
}

async function openDocument(page: Page, docUrl: string): Promise<void> {
  await entry(page, 'Untitled document.docx').dblclick();
  await expect(page).toHaveURL(new RegExp(`${docUrl}$`));
}

async function restore(page: Page, index: number): Promise<void> {
  const restored = page.waitForResponse((response) => /\/versions\/\d+\/restore$/.test(response.url()));
  await versions(page).nth(index).getByRole('button', { name: 'Restore' }).click();
  expect((await restored).ok()).toBe(true);
}

/** Back in the drive (in the app: a full reload of the bundle is what this machine's load makes slow), the file's details. */
async function openVersions(page: Page, name: string): Promise<void> {
  await page.goBack();
  await entry(page, name).click();
  const details = page.getByRole('button', { name: 'Details' });
  if ((await details.getAttribute('aria-pressed')) !== 'true') await details.click();
  await expect(page.getByRole('region', { name: 'Versions' })).toBeVisible();
}

test('three saves make versions; restoring the first shows it, and the replaced text is a version too', async ({ page }) => {
  test.setTimeout(180_000);
  // The first visit installs the service worker, whose precache competes with the next navigation: on this
  // machine (load 15+ on 2 cores) the sign-up helper's 5 s ran out on that. Its own load starts once it is settled.
  await page.goto('/register');
  await expect(page.getByRole('heading', { name: 'Create a new account' })).toBeVisible({ timeout: 30_000 });
  await waitForServiceWorker(page);
  await registerFreshUser(page);
  await page.getByRole('button', { name: 'New document' }).click();
  await expect(page).toHaveURL(/\/doc\/[^/]+$/);
  const docUrl = new URL(page.url()).pathname;
  await expect(editor(page)).toHaveAttribute('contenteditable', 'true');
  const id = docUrl.split('/').pop()!;
  await saveAs(page, id, 'First draft');
  await saveAs(page, id, 'Second draft');
  await saveAs(page, id, 'Third draft');

  // Newest first: the second draft, the first, and the empty document the drive made.
  await openVersions(page, 'Untitled document.docx');
  await expect(versions(page)).toHaveCount(3);
  await restore(page, 1);

  await openDocument(page, docUrl);
  await expect(editor(page)).toHaveText('First draft');

  // The restored version became the content again, and the text it replaced is the newest version now:
  // restoring that brings it back.
  await openVersions(page, 'Untitled document.docx');
  await expect(versions(page)).toHaveCount(3);
  await restore(page, 0);
  await openDocument(page, docUrl);
  await expect(editor(page)).toHaveText('Third draft');

  // An earlier version opens read-only in the editor: the first draft again, under a banner, not editable.
  await openVersions(page, 'Untitled document.docx');
  await versions(page).nth(0).getByRole('link', { name: 'Open read-only' }).click();
  await expect(page.getByRole('region', { name: 'Earlier version' })).toContainText('It is read-only.');
  await expect(editor(page)).toHaveText('First draft');
  await expect(editor(page)).toHaveAttribute('contenteditable', 'false');
  await expect(page.getByRole('button', { name: 'Save now' })).toHaveCount(0);

  // In the trash, the row says when it goes for good (trash.keep_days, 30 by default).
  await page.goBack();
  await entry(page, 'Untitled document.docx').click();
  await page.keyboard.press('Delete');
  await expect(page.getByText('Moved 1 item to trash')).toBeVisible();
  await sidebar(page).getByRole('link', { name: 'Trash' }).click();
  await expect(entry(page, 'Untitled document.docx').getByTestId('entry-purge')).toHaveText('Deleted forever in 30 days');
});

async function xsrf(page: Page): Promise<Record<string, string>> {
  const token = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  return { 'X-XSRF-TOKEN': decodeURIComponent(token) };
}

/** A plain upload through the API (page.request: not the browser's network, so it works while the page is offline). */
async function uploadText(page: Page, name: string, text: string, onConflict?: 'replace'): Promise<string> {
  const multipart: Record<string, string | { name: string; mimeType: string; buffer: Buffer }> = {
    file: { name, mimeType: 'text/plain', buffer: Buffer.from(text) },
    ...(onConflict ? { onConflict } : {}),
  };
  const response = await page.request.post('/api/v1/file-entries', { multipart, headers: await xsrf(page) });
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()) as { fileEntry: { id: string } }).fileEntry.id;
}

/** The pinned copy of an entry: the version the device keeps for it and those bytes, read from IndexedDB and Cache Storage. */
async function pinnedCopy(page: Page, userId: string, entryId: string): Promise<{ version: string | null; text: string | null }> {
  return page.evaluate(
    async ({ uid, id }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(`drive-user-${uid}`);
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      const row = db.objectStoreNames.contains('offlineEntries')
        ? await new Promise<{ version: string | null; storedAt: number | null } | undefined>((resolve, reject) => {
            const request = db.transaction('offlineEntries').objectStore('offlineEntries').get(id);
            request.onsuccess = () => resolve(request.result as never);
            request.onerror = () => reject(request.error);
          })
        : undefined;
      db.close();
      const version = row?.storedAt ? row.version : null;
      const stored = version ? await (await caches.open(`drive-offline-files-${uid}`)).match(`/__offline/files/${version}`) : undefined;
      return { version, text: stored ? await stored.text() : null };
    },
    { uid: userId, id: entryId },
  );
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

test('a pinned file follows a version restored while the device was offline; restoring from it offline is refused', async ({ page, context }) => {
  test.setTimeout(90_000);
  await ready(page);
  const userId = await currentUserId(page);
  const id = await uploadText(page, 'notes.txt', 'first version');
  await uploadText(page, 'notes.txt', 'second version, longer', 'replace');
  await page.reload();
  await entry(page, 'notes.txt').click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Make available offline' }).click();
  await expect(entry(page, 'notes.txt').getByTestId('offline-badge')).toHaveAttribute('data-state', 'up-to-date', { timeout: 30_000 });
  expect(await pinnedCopy(page, userId, id)).toEqual({ version: sha256('second version, longer'), text: 'second version, longer' });

  // Offline, this device may not restore: the Versions panel says why and offers no Restore.
  await entry(page, 'notes.txt').click();
  await page.getByRole('button', { name: 'Details' }).click();
  const panel = page.getByRole('region', { name: 'Versions' });
  await expect(panel.getByTestId('version')).toHaveCount(1);
  await context.setOffline(true);
  await expect(page.getByTestId('offline-indicator')).toBeVisible();
  await expect(panel).toContainText('Versions can be restored only while online.');
  await expect(panel.getByRole('button', { name: 'Restore', exact: true })).toHaveCount(0);

  // Another device restores the first version meanwhile (page.request is not the browser's network).
  const { versions } = (await (await page.request.get(`/api/v1/file-entries/${id}/versions`)).json()) as { versions: { id: number }[] };
  const restored = await page.request.post(`/api/v1/file-entries/${id}/versions/${versions[0]!.id}/restore`, { headers: await xsrf(page) });
  expect(restored.ok(), await restored.text()).toBe(true);
  expect((await pinnedCopy(page, userId, id)).text).toBe('second version, longer');

  // Back online, the sync compares the manifest and the pinned copy follows the restored version.
  await context.setOffline(false);
  await expect.poll(() => pinnedCopy(page, userId, id), { timeout: 30_000 }).toEqual({ version: sha256('first version'), text: 'first version' });
});
