import { expect, test } from '@playwright/test';
import { htmlToDocx } from '../server/documents/libreoffice';
import { entry, registerFreshUser, sidebar } from './drive-helpers';

// Issue 35: a .docx uploaded through the drive is found by a word inside it, with the word marked in a snippet.

test('upload a .docx and find it by a word inside it, the word marked under its name', async ({ page }) => {
  test.setTimeout(120_000);
  const docx = await htmlToDocx('<html><body><p>Minutes: the harbour extension is approved for spring.</p></body></html>', 'minutes');
  await registerFreshUser(page);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Upload', exact: true }).first().click();
  await (
    await chooser
  ).setFiles([
    { name: 'minutes.docx', mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', buffer: docx },
    { name: 'harbour-photo.txt', mimeType: 'text/plain', buffer: Buffer.from('nothing about ships') },
  ]);
  await expect(entry(page, 'minutes.docx')).toBeVisible();

  // The text is read in the background after the upload: wait until the server can find it.
  await expect
    .poll(async () => {
      const answer = await page.request.get('/api/v1/drive/file-entries?query=approved&content=true');
      return ((await answer.json()) as { pagination: { data: { name: string }[] } }).pagination.data.map((e) => e.name);
    })
    .toEqual(['minutes.docx']);

  await sidebar(page).getByRole('link', { name: 'Search' }).click();
  await expect(page.getByRole('checkbox', { name: 'Search inside files' })).toBeChecked();
  await page.getByRole('searchbox').fill('harbour');
  await expect(entry(page, 'minutes.docx')).toBeVisible();
  await expect(entry(page, 'harbour-photo.txt')).toBeVisible();
  const snippet = entry(page, 'minutes.docx').getByTestId('content-snippet');
  await expect(snippet).toContainText('the harbour extension is approved');
  await expect(snippet.locator('mark')).toHaveText(['harbour']);
  // A name match has no snippet.
  await expect(entry(page, 'harbour-photo.txt').getByTestId('content-snippet')).toHaveCount(0);

  // Names only: the .docx goes.
  await page.getByRole('checkbox', { name: 'Search inside files' }).uncheck();
  await expect(entry(page, 'minutes.docx')).toHaveCount(0);
  await expect(entry(page, 'harbour-photo.txt')).toBeVisible();
});
