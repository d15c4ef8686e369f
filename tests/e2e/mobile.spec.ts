import { expect, test } from '@playwright/test';
import { login } from './helpers';

test.use({ viewport: { width: 390, height: 800 } });

test('under 768 px the notification popover opens as a modal and the mobile menu lists its items', async ({ page }) => {
  await login(page);
  await page.getByRole('button', { name: 'Notifications' }).click();
  const dialog = page.getByRole('dialog', { name: 'Notifications' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Notifications will appear here as soon as possible.');
  // A modal: focus is trapped inside and Escape closes it.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  await page.getByRole('button', { name: 'Open menu' }).click();
  const menu = page.getByRole('dialog', { name: 'Menu' });
  await expect(menu.getByRole('link', { name: 'My drive' })).toHaveAttribute('aria-current', 'page');
  await menu.getByRole('link', { name: 'Pricing' }).click();
  await expect(page).toHaveURL(/\/pricing$/);
});
