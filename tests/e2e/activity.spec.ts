import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { entry } from './drive-helpers';
import { ready } from './upload-helpers';

// Issue 35 end to end: an uploaded file's Activity tab shows the upload and a rename; a guest downloads a
// link whose owner asked for receipts, and the owner's bell shows the receipt.

const xsrf = async (page: Page) => decodeURIComponent((await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '');

test('the Activity tab shows the upload and a rename; a guest download reaches the owner’s bell', async ({ page, browser }) => {
  test.setTimeout(120_000);
  await ready(page);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Upload', exact: true }).first().click();
  await (await chooser).setFiles([{ name: 'minutes.txt', mimeType: 'text/plain', buffer: Buffer.from('minutes of the meeting') }]);
  await expect(entry(page, 'minutes.txt')).toBeVisible();

  // Renamed through the API (the rename dialog has its own spec); the tab reads the server's records.
  const listing = await page.request.get('/api/v1/drive/file-entries');
  const file = ((await listing.json()) as { pagination: { data: { id: string; name: string }[] } }).pagination.data.find((e) => e.name === 'minutes.txt')!;
  const renamed = await page.request.put(`/api/v1/file-entries/${file.id}`, { headers: { 'X-XSRF-TOKEN': await xsrf(page) }, data: { name: 'notes.txt' } });
  expect(renamed.ok()).toBe(true);
  await page.reload();
  await entry(page, 'notes.txt').click();
  const details = page.getByRole('button', { name: 'Details' });
  if ((await details.getAttribute('aria-pressed')) !== 'true') await details.click();
  await page.getByRole('tab', { name: 'Activity' }).click();
  const records = page.getByRole('region', { name: 'Activity' }).getByTestId('activity-record');
  await expect(records).toHaveCount(2);
  await expect(records.nth(0)).toContainText('Renamed from minutes.txt to notes.txt');
  await expect(records.nth(1)).toContainText('Created');

  const made = await page.request.post(`/api/v1/file-entries/${file.id}/share-links`, {
    headers: { 'X-XSRF-TOKEN': await xsrf(page) },
    data: { notifyOwner: true },
  });
  const { token } = ((await made.json()) as { link: { token: string } }).link;
  const guest = await browser.newContext();
  const downloaded = await guest.request.get(`/api/v1/shared-links/${token}/download?hashes=${file.id}`);
  expect(downloaded.ok()).toBe(true);
  await guest.close();

  const bell = page.getByRole('button', { name: /^Notifications/ });
  await expect(bell).toHaveAccessibleName('Notifications (1 unread)', { timeout: 20_000 });
  await bell.click();
  await expect(page.getByRole('dialog', { name: 'Notifications' })).toContainText('Someone downloaded notes.txt through your link');
});
