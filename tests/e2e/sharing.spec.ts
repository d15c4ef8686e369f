import { expect, test, type Browser } from '@playwright/test';
import { createFolder, entry, registerFreshUser, sidebar } from './drive-helpers';

// Sharing with people in Chromium: one user shares a folder with another, who
// sees it in Shared with me, gets the notification, and uploads into it with
// edit rights; the file is the owner's.

async function person(browser: Browser) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const user = await registerFreshUser(page);
  return { context, page, user };
}

test('a folder shared with edit rights: Shared with me, the notification, an upload into it', async ({ browser }) => {
  const owner = await person(browser);
  const friend = await person(browser);

  await createFolder(owner.page, 'Holiday');
  await entry(owner.page, 'Holiday').click({ button: 'right' });
  await owner.page.getByRole('menuitem', { name: 'Share' }).click();
  const dialog = owner.page.getByRole('dialog', { name: 'Share "Holiday"' });
  const emails = dialog.getByRole('textbox', { name: 'Enter email addresses' });
  // Typed and not yet made a chip: clicking Share sends it anyway.
  await emails.fill(friend.user.email);
  await dialog.getByRole('combobox', { name: 'Permission', exact: true }).selectOption({ label: 'Can edit' });
  await dialog.getByRole('button', { name: 'Share', exact: true }).click();
  await expect(owner.page.getByText('Shared', { exact: true })).toBeVisible();
  await expect(dialog.getByTestId('share-row')).toContainText(friend.user.email);
  await dialog.getByRole('button', { name: 'Close' }).click();

  // The friend's bell hears of it without a reload.
  await expect(friend.page.getByRole('button', { name: 'Notifications (1 unread)' })).toBeVisible();
  await sidebar(friend.page).getByRole('link', { name: 'Shared with me' }).click();
  await expect(entry(friend.page, 'Holiday')).toBeVisible();
  await expect(entry(friend.page, 'Holiday').getByTestId('entry-owner')).toHaveText('Dora Drive');
  await entry(friend.page, 'Holiday').dblclick();
  await expect(friend.page.getByRole('heading', { name: 'Holiday' })).toBeVisible();

  const chooser = friend.page.waitForEvent('filechooser');
  await friend.page.getByRole('button', { name: 'Upload', exact: true }).first().click();
  await (await chooser).setFiles([{ name: 'photos.txt', mimeType: 'text/plain', buffer: Buffer.from('beach') }]);
  await expect(entry(friend.page, 'photos.txt')).toBeVisible();

  await entry(owner.page, 'Holiday').dblclick();
  await expect(entry(owner.page, 'photos.txt')).toBeVisible();
  await owner.context.close();
  await friend.context.close();
});
