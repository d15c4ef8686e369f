import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { createFolder, entry, registerFreshUser } from './drive-helpers';

// Sharing by link in Chromium: the owner makes links in the Share dialog; guests
// in fresh browser contexts (no account, no cookies) open them.

async function upload(page: Page, files: { name: string; mimeType: string; buffer: Buffer }[]) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Upload', exact: true }).first().click();
  await (await chooser).setFiles(files);
  for (const file of files) await expect(entry(page, file.name)).toBeVisible();
}

async function openShareDialog(page: Page, name: string) {
  await entry(page, name).click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Share' }).click();
  return page.getByRole('dialog', { name: `Share "${name}"` });
}

test('a password link with a download limit: the guest unlocks it, previews, downloads, and is refused after the limit', async ({ page, browser }) => {
  await registerFreshUser(page);
  const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 40, b: 40 } } })
    .png()
    .toBuffer();
  await upload(page, [{ name: 'sunset.png', mimeType: 'image/png', buffer: png }]);

  const dialog = await openShareDialog(page, 'sunset.png');
  await dialog.getByRole('button', { name: 'Create link' }).click();
  const settings = dialog.getByRole('form', { name: 'Link settings' });
  await settings.getByLabel('Protect with a password').check();
  await settings.getByLabel('Link password').fill('beach house');
  await settings.getByLabel('Limit downloads').check();
  await settings.getByLabel('Download limit').fill('1');
  await settings.getByRole('button', { name: 'Create link' }).click();
  const row = dialog.getByTestId('share-link');
  await expect(row.getByTestId('share-link-summary')).toContainText('Password');
  await expect(row.getByTestId('share-link-summary')).toContainText('0 of 1 downloads');
  const url = await row.getByLabel('Link address').inputValue();
  expect(url).toMatch(/\/drive\/s\/[A-Za-z0-9_-]{24}$/);

  const guestContext = await browser.newContext({ acceptDownloads: true });
  const guest = await guestContext.newPage();
  await guest.goto(url);
  await expect(guest.getByRole('heading', { name: 'This link is protected by a password.' })).toBeVisible();
  await expect(guest.getByText('sunset.png')).toHaveCount(0);
  await guest.getByLabel('Password').fill('not it');
  await guest.getByRole('button', { name: 'Open' }).click();
  await expect(guest.getByRole('alert')).toHaveText('The password is incorrect.');
  await guest.getByLabel('Password').fill('beach house');
  await guest.getByRole('button', { name: 'Open' }).click();
  await expect(guest.getByRole('heading', { name: 'sunset.png' })).toBeVisible();
  await expect(guest.getByText('Shared by Dora Drive')).toBeVisible();
  const image = guest.getByRole('img', { name: 'sunset.png' });
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(64);

  // The preview took the one download; its grant cookie lets this browser download the same file.
  const downloading = guest.waitForEvent('download');
  await guest.getByRole('button', { name: /^Download/ }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('sunset.png');
  // The one allowed download is used: the page says so, and the server refuses another.
  await expect(guest.getByRole('heading', { name: 'This link has reached its download limit.' })).toBeVisible();
  const again = await guest.request.get(url.replace('/drive/s/', '/api/v1/shared-links/') + '/download?hashes=x');
  expect(again.status()).toBe(410);

  // The owner sees the download and the visits in the link's summary and access log.
  await dialog.getByRole('button', { name: 'Close' }).click();
  const reopened = await openShareDialog(page, 'sunset.png');
  await expect(reopened.getByTestId('share-link-summary')).toContainText('1 of 1 downloads');
  await reopened.getByRole('button', { name: 'Access log' }).click();
  await expect(reopened.getByTestId('link-event').first()).toContainText('Downloaded: sunset.png');
  await guestContext.close();
});

test('a folder link: the guest browses into a sub-folder and downloads a selection as a zip', async ({ page, browser }) => {
  await registerFreshUser(page);
  await createFolder(page, 'Recipes');
  await entry(page, 'Recipes').dblclick();
  await upload(page, [
    { name: 'soup.txt', mimeType: 'text/plain', buffer: Buffer.from('water, salt') },
    { name: 'bread.txt', mimeType: 'text/plain', buffer: Buffer.from('flour, yeast') },
  ]);
  await createFolder(page, 'Cakes');
  await page.goto('/drive');

  const dialog = await openShareDialog(page, 'Recipes');
  await dialog.getByRole('button', { name: 'Create link' }).click();
  await dialog.getByRole('form', { name: 'Link settings' }).getByRole('button', { name: 'Create link' }).click();
  const url = await dialog.getByTestId('share-link').getByLabel('Link address').inputValue();

  const guestContext = await browser.newContext({ acceptDownloads: true });
  const guest = await guestContext.newPage();
  await guest.goto(url);
  await expect(guest.getByRole('heading', { name: 'Recipes' })).toBeVisible();
  await expect(guest.getByTestId('link-entry')).toHaveText([/Cakes/, /bread\.txt/, /soup\.txt/]);
  await guest.getByRole('button', { name: 'Cakes' }).click();
  await expect(guest.getByText('This folder is empty')).toBeVisible();
  await guest.getByRole('navigation', { name: 'Folder path' }).getByRole('button', { name: 'Recipes' }).click();
  await guest.getByRole('button', { name: 'soup.txt' }).click();
  await expect(guest.getByRole('dialog', { name: 'soup.txt' }).locator('iframe')).toBeVisible();
  await guest.getByRole('dialog', { name: 'soup.txt' }).getByRole('button', { name: 'Close' }).click();

  await guest.getByLabel('Select soup.txt').check();
  await guest.getByLabel('Select bread.txt').check();
  const downloading = guest.waitForEvent('download');
  await guest.getByRole('button', { name: 'Download 2 selected' }).click();
  expect((await downloading).suggestedFilename()).toBe('download.zip');
  await guestContext.close();
});

test('a file drop: a guest sends files into a folder they cannot see, and the owner finds them there', async ({ page, browser }) => {
  await registerFreshUser(page);
  await createFolder(page, 'Submissions');
  const dialog = await openShareDialog(page, 'Submissions');
  await dialog.getByRole('button', { name: 'Create link' }).click();
  const settings = dialog.getByRole('form', { name: 'Link settings' });
  await settings.getByLabel('File drop: people can upload but not see the files').check();
  await settings.getByRole('button', { name: 'Create link' }).click();
  await expect(dialog.getByTestId('share-link-summary')).toContainText('File drop');
  const url = await dialog.getByTestId('share-link').getByLabel('Link address').inputValue();
  await dialog.getByRole('button', { name: 'Close' }).click();

  const guestContext = await browser.newContext();
  const guest = await guestContext.newPage();
  await guest.goto(url);
  await expect(guest.getByText('Drop files here to send them to Dora Drive')).toBeVisible();
  const chooser = guest.waitForEvent('filechooser');
  await guest.getByRole('button', { name: 'Choose files' }).click();
  await (await chooser).setFiles([{ name: 'essay.txt', mimeType: 'text/plain', buffer: Buffer.from('my essay') }]);
  await expect(guest.getByTestId('dropped-file')).toContainText('Sent');
  await guestContext.close();

  await entry(page, 'Submissions').dblclick();
  await expect(entry(page, 'essay.txt')).toBeVisible();
});
