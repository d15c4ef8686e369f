import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { entry, registerFreshUser } from './drive-helpers';
import { waitForServiceWorker } from './helpers';
import { currentUserId } from './upload-helpers';

// Issue 39 item 5: a phone's share sheet posts files to the manifest's share_target. The service worker answers
// that POST itself (the server has no such address), queues the files for upload and sends the browser on to the
// drive. A share sheet's post is a form navigation: the test makes the same one from the page.
async function shareFiles(page: Page, files: { name: string; type: string; text: string }[]): Promise<void> {
  await page.evaluate((files) => {
    const form = document.createElement('form');
    form.method = 'post';
    form.action = '/share-target';
    form.enctype = 'multipart/form-data';
    const input = document.createElement('input');
    input.type = 'file';
    input.name = 'files';
    input.multiple = true;
    const chosen = new DataTransfer();
    for (const file of files) chosen.items.add(new File([file.text], file.name, { type: file.type }));
    input.files = chosen.files;
    const title = document.createElement('input');
    title.name = 'title';
    title.value = 'From the gallery';
    form.append(input, title);
    document.body.append(form);
    form.submit();
  }, files);
}

interface StoredItem {
  userId: string;
  name: string;
  folderHash: string;
  workspaceId: number | null;
  status: string;
}

async function queuedItems(page: Page): Promise<StoredItem[]> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('drive-uploads');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const items = await new Promise<StoredItem[]>((resolve, reject) => {
      const request = db.transaction('items').objectStore('items').getAll();
      request.onsuccess = () => resolve(request.result as StoredItem[]);
      request.onerror = () => reject(request.error);
    });
    db.close();
    return items;
  });
}

test('files shared into the app offline are queued by the worker, shown in the upload panel and uploaded when the network returns', async ({
  page,
  context,
}) => {
  await registerFreshUser(page);
  await waitForServiceWorker(page);
  const userId = await currentUserId(page);
  // Offline, so only the worker can have answered the share.
  await context.setOffline(true);
  await shareFiles(page, [
    { name: 'beach.jpg', type: 'image/jpeg', text: 'not really a jpeg' },
    { name: 'notes.txt', type: 'text/plain', text: 'shared notes' },
  ]);
  await expect(page).toHaveURL(/\/drive\?shared=2$/);
  const panel = page.getByRole('region', { name: 'Uploads' });
  await expect(panel.getByRole('heading', { name: 'Waiting for network: 2 files (29 B) will upload by themselves' })).toBeVisible();
  for (const name of ['beach.jpg', 'notes.txt']) await expect(panel.getByRole('listitem', { name })).toContainText('Waiting for network');
  const stored = await queuedItems(page);
  expect(
    stored.map(({ name, userId: owner, folderHash, workspaceId }) => ({ name, owner, folderHash, workspaceId })).sort((a, b) => a.name.localeCompare(b.name)),
  ).toEqual([
    { name: 'beach.jpg', owner: userId, folderHash: '0', workspaceId: null },
    { name: 'notes.txt', owner: userId, folderHash: '0', workspaceId: null },
  ]);

  await context.setOffline(false);
  await expect(entry(page, 'beach.jpg')).toBeVisible({ timeout: 15_000 });
  await expect(entry(page, 'notes.txt')).toBeVisible();
});

test('a share while signed out keeps the files, asks to sign in, and uploads them once signed in', async ({ page }) => {
  const user = await registerFreshUser(page);
  await waitForServiceWorker(page);
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);

  await shareFiles(page, [{ name: 'receipt.txt', type: 'text/plain', text: 'a receipt' }]);
  await expect(page).toHaveURL(/\/login\?redirect=/);
  await expect(page.getByRole('status').filter({ hasText: 'Sign in to upload the files you shared (1)' })).toBeVisible();
  expect((await queuedItems(page)).map(({ name, userId }) => ({ name, userId }))).toEqual([{ name: 'receipt.txt', userId: '' }]);

  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/drive\?shared=1$/);
  await expect(entry(page, 'receipt.txt')).toBeVisible({ timeout: 15_000 });
});
