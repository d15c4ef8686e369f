import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { createFolder, entry, sidebar } from './drive-helpers';
import { currentUserId, ready } from './upload-helpers';

// Issue 39 item 4: the Offline files page, a pin that would not fit, and
// sign-out taking every pinned byte of the user off the device.

async function uploadInto(page: Page, folder: string, files: { name: string; bytes: number }[]): Promise<void> {
  await entry(page, folder).dblclick();
  await expect(page).toHaveURL(/\/drive\/folders\//);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Upload', exact: true }).first().click();
  await (await chooser).setFiles(files.map((file) => ({ name: file.name, mimeType: 'text/plain', buffer: Buffer.alloc(file.bytes, 'x') })));
  for (const file of files) await expect(entry(page, file.name)).toBeVisible({ timeout: 15_000 });
  await sidebar(page).getByRole('link', { name: 'My drive' }).click();
}

async function pin(page: Page, name: string): Promise<void> {
  await entry(page, name).click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Make available offline' }).click();
}

/** What the device holds for a user: pins in their database and the names of their caches of bytes. */
function deviceHolds(page: Page, userId: string) {
  return page.evaluate(async (id) => {
    const cacheNames = (await caches.keys()).filter((name) => name.startsWith('drive-offline-files-'));
    const bytes = await Promise.all(
      cacheNames.map(async (name) => {
        const cache = await caches.open(name);
        return (await cache.keys()).length;
      }),
    );
    const pins = await new Promise<number>((resolve, reject) => {
      const open = indexedDB.open(`drive-user-${id}`);
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const db = open.result;
        if (!db.objectStoreNames.contains('pins')) {
          db.close();
          resolve(0);
          return;
        }
        const count = db.transaction('pins').objectStore('pins').count();
        count.onsuccess = () => {
          db.close();
          resolve(count.result);
        };
        count.onerror = () => reject(count.error);
      };
    });
    return { cacheNames, cachedEntries: bytes.reduce((a, b) => a + b, 0), pins };
  }, userId);
}

test('the Offline files page lists a pinned folder with its size and state, and sign-out removes its bytes from the device', async ({ page }) => {
  test.setTimeout(90_000);
  await ready(page);
  const userId = await currentUserId(page);
  await createFolder(page, 'Trip');
  await uploadInto(page, 'Trip', [
    { name: 'a.txt', bytes: 3000 },
    { name: 'b.txt', bytes: 5000 },
  ]);

  await sidebar(page).getByRole('link', { name: 'Offline files' }).click();
  await expect(page).toHaveURL(/\/drive\/offline$/);
  await expect(page.getByText(/Nothing is kept on this device yet/)).toBeVisible();
  // Chromium reports the estimate; the quota is some share of the disk.
  await expect(page.getByTestId('offline-estimate')).toHaveText(/^\S+ \S+ of \S+ \S+ used on this device$/);

  await sidebar(page).getByRole('link', { name: 'My drive' }).click();
  await pin(page, 'Trip');
  await sidebar(page).getByRole('link', { name: 'Offline files' }).click();
  const line = page.getByTestId('offline-pin').filter({ hasText: 'Trip' });
  await expect(line).toHaveAttribute('data-state', 'up-to-date', { timeout: 20_000 });
  await expect(line).toContainText('7.8 KB · 2 of 2 files · Up to date');
  // The browser answered persist() when the user first pinned: the page shows that answer.
  await expect(page.getByTestId('offline-persisted')).not.toHaveAttribute('data-persisted', 'null');
  await expect(page.getByText('Offline files: 7.8 KB')).toBeVisible();

  const held = await deviceHolds(page, userId);
  expect(held.pins).toBe(1);
  expect(held.cacheNames).toEqual([`drive-offline-files-${userId}`]);
  expect(held.cachedEntries).toBeGreaterThanOrEqual(2);

  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await deviceHolds(page, userId)).toEqual({ cacheNames: [], cachedEntries: 0, pins: 0 });
});

test('a pin that would not fit in the space the browser gives says so, and nothing is downloaded', async ({ page }) => {
  // The browser says 1 KB is left: the folder's 8 KB must be refused before any byte is fetched.
  await page.addInitScript(() => {
    const estimate = async () => ({ usage: 1_000_000 - 1024, quota: 1_000_000 });
    Object.defineProperty(navigator.storage, 'estimate', { value: estimate, configurable: true });
  });
  await ready(page);
  await createFolder(page, 'Films');
  await uploadInto(page, 'Films', [{ name: 'film.txt', bytes: 8000 }]);

  const downloads: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/file-entries/download') || request.url().includes('/offline-manifest')) downloads.push(request.url());
  });
  await pin(page, 'Films');
  await expect(page.getByText(/^Not enough space on this device: 7\.8 KB needed, 1 KB free\.$/)).toBeVisible();

  await sidebar(page).getByRole('link', { name: 'Offline files' }).click();
  await expect(page.getByText(/Nothing is kept on this device yet/)).toBeVisible();
  expect(downloads).toEqual([]);
});
