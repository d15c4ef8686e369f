import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import yauzl from 'yauzl';
import { waitForServiceWorker } from './helpers';
import { createFolder, dragOnto, entry, registerFreshUser, sidebar } from './drive-helpers';

// Spec §2/§3/§4/§7 drive flows against the built server, in a fresh drive per test.

function zipEntryNames(path: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error('not a zip'));
      const names: string[] = [];
      zip.on('entry', (item: { fileName: string }) => {
        names.push(item.fileName);
        zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

test('an empty drive shows the folder empty state and the storage summary', async ({ page }) => {
  await registerFreshUser(page);
  await expect(page.getByRole('heading', { name: 'Drive', exact: true })).toBeVisible();
  await expect(page.getByText('Drop files or folders here')).toBeVisible();
  await expect(page.getByText('Or use the "Upload" button')).toBeVisible();
  await expect(page.getByTestId('storage-summary')).toContainText(/0 B of .* used/);
  await expect(sidebar(page).getByRole('link', { name: 'My drive' })).toHaveAttribute('aria-current', 'page');
  await sidebar(page).getByRole('link', { name: 'Trash' }).click();
  await expect(page.getByText('Trash is empty')).toBeVisible();
  await sidebar(page).getByRole('link', { name: 'Starred' }).click();
  await expect(page.getByText('Nothing is starred')).toBeVisible();
  await sidebar(page).getByRole('link', { name: 'Search' }).click();
  await expect(page.getByText('Begin typing or select a filter to search')).toBeVisible();
});

test('create, rename, move by drag, star, search', async ({ page }) => {
  await registerFreshUser(page);
  await createFolder(page, 'Alpha');
  await createFolder(page, 'Beta');

  // Rename with F2.
  await entry(page, 'Beta').click();
  await page.keyboard.press('F2');
  const rename = page.getByRole('dialog', { name: 'Rename' });
  await rename.getByLabel('Name').fill('Bravo');
  await rename.getByRole('button', { name: 'Save' }).click();
  await expect(entry(page, 'Bravo')).toBeVisible();
  await expect(entry(page, 'Beta')).toHaveCount(0);

  // Drag Bravo onto Alpha: it moves inside.
  await dragOnto(page, entry(page, 'Bravo'), entry(page, 'Alpha'));
  await expect(entry(page, 'Bravo')).toHaveCount(0);
  await entry(page, 'Alpha').dblclick();
  await expect(page).toHaveURL(/\/drive\/folders\/[\w-]+$/);
  await expect(page.getByRole('heading', { name: 'Alpha' })).toBeVisible();
  await expect(entry(page, 'Bravo')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Breadcrumbs' }).getByRole('link', { name: 'Drive' })).toBeVisible();

  // Star it; it shows under Starred.
  await entry(page, 'Bravo').click();
  await page.getByRole('toolbar').getByRole('button', { name: 'Add to starred' }).click();
  await expect(page.getByRole('toolbar').getByRole('button', { name: 'Remove from starred' })).toBeVisible();
  await sidebar(page).getByRole('link', { name: 'Starred' }).click();
  await expect(entry(page, 'Bravo')).toBeVisible();

  // Search by part of the name, across the whole drive.
  await sidebar(page).getByRole('link', { name: 'Search' }).click();
  await page.getByRole('searchbox').fill('brav');
  await expect(entry(page, 'Bravo')).toBeVisible();
  await expect(entry(page, 'Alpha')).toHaveCount(0);
  await page.getByRole('searchbox').fill('nothing-like-this');
  await expect(page.getByText('No matching results')).toBeVisible();
});

test('trash, restore and empty the trash with the spec toasts', async ({ page }) => {
  await registerFreshUser(page);
  await createFolder(page, 'Old');
  await createFolder(page, 'Older');

  await entry(page, 'Old').click();
  await page.keyboard.press('Delete');
  await expect(page.getByText('Moved 1 item to trash')).toBeVisible();
  await expect(entry(page, 'Old')).toHaveCount(0);

  // The sidebar Trash takes a dragged entry (to trash, not deleted).
  await dragOnto(page, entry(page, 'Older'), sidebar(page).getByRole('link', { name: 'Trash' }));
  await expect(page.getByText('Moved 1 item to trash')).toBeVisible();
  await expect(page.getByText('Drop files or folders here')).toBeVisible();

  await sidebar(page).getByRole('link', { name: 'Trash' }).click();
  await entry(page, 'Old').click();
  await page.getByRole('toolbar').getByRole('button', { name: 'Restore' }).click();
  await expect(entry(page, 'Old')).toHaveCount(0);
  await sidebar(page).getByRole('link', { name: 'My drive' }).click();
  await expect(entry(page, 'Old')).toBeVisible();

  await sidebar(page).getByRole('link', { name: 'Trash' }).click();
  await expect(entry(page, 'Older')).toBeVisible();
  await page.getByRole('button', { name: 'Empty trash' }).click();
  await page.getByRole('dialog', { name: 'Empty trash' }).getByRole('button', { name: 'Empty trash' }).click();
  await expect(page.getByText('Emptied trash')).toBeVisible();
  await expect(page.getByText('Trash is empty')).toBeVisible();
});

test('a folder downloads as a zip with its contents', async ({ page }) => {
  await registerFreshUser(page);
  await createFolder(page, 'Reports');
  await entry(page, 'Reports').dblclick();
  await expect(page.getByRole('heading', { name: 'Reports' })).toBeVisible();
  await createFolder(page, 'Q1');
  await sidebar(page).getByRole('link', { name: 'My drive' }).click();

  await entry(page, 'Reports').click();
  const download = page.waitForEvent('download');
  await page.getByRole('toolbar').getByRole('button', { name: 'Download' }).click();
  const file = await (await download).path();
  expect(readFileSync(file).subarray(0, 2).toString('latin1')).toBe('PK');
  const names = await zipEntryNames(file);
  expect(names.some((name) => name.startsWith('Reports/Q1'))).toBe(true);
});

test('opening an image shows its preview', async ({ page, context }) => {
  await registerFreshUser(page);
  // A real 2x2 PNG stored through the plain upload call, as the browser would send it.
  const png = Buffer.from(
    '89504e470d0a1a0a0000000d4948445200000002000000020802000000fdd49a73000000164944415478da63f8cfc0f09f81e13f03c37f06060600003ffa07f9b8c8e2d40000000049454e44ae426082',
    'hex',
  );
  const xsrf = (await context.cookies()).find((c) => c.name === 'XSRF-TOKEN')!.value;
  const upload = await page.request.post('/api/v1/file-entries', {
    headers: { 'X-XSRF-TOKEN': xsrf },
    multipart: { parentId: '0', file: { name: 'dot.png', mimeType: 'image/png', buffer: png } },
  });
  expect(upload.status()).toBe(200);
  await page.reload();
  await entry(page, 'dot.png').dblclick();
  const preview = page.getByRole('dialog', { name: 'Preview' });
  await expect(preview.getByRole('img', { name: 'dot.png' })).toBeVisible();
  // The bytes the preview shows are the ones stored.
  const src = await preview.getByRole('img', { name: 'dot.png' }).getAttribute('src');
  const served = await page.request.get(src!);
  expect(served.headers()['x-content-type-options']).toBe('nosniff');
  expect(Buffer.from(await served.body()).equals(png)).toBe(true);
});

test('offline, a folder seen before still opens and says it is offline', async ({ page, context }) => {
  await registerFreshUser(page);
  await waitForServiceWorker(page);
  await createFolder(page, 'Travel');
  await entry(page, 'Travel').dblclick();
  await expect(page.getByRole('heading', { name: 'Travel' })).toBeVisible();
  await createFolder(page, 'Tickets');
  const folderUrl = page.url();
  await sidebar(page).getByRole('link', { name: 'My drive' }).click();
  await expect(entry(page, 'Travel')).toBeVisible();

  await context.setOffline(true);
  await page.goto(folderUrl);
  await expect(page.getByTestId('offline-indicator')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Travel' })).toBeVisible();
  await expect(entry(page, 'Tickets')).toBeVisible();
  await expect(page.getByTestId('drive-offline-notice')).toContainText('You are offline');
  // Actions that need the server say why they cannot run.
  await entry(page, 'Tickets').click();
  await expect(page.getByRole('toolbar').getByRole('button', { name: 'Rename' })).toHaveAttribute('aria-disabled', 'true');
  await expect(page.getByRole('button', { name: 'New folder' })).toHaveAttribute('aria-description', 'Not available while offline');
  await context.setOffline(false);
});
