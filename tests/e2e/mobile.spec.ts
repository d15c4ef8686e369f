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

  // One menu button: on the drive it opens the sidebar, which carries the menu's links too.
  const menuButtons = page.getByRole('button', { name: /^(Toggle sidebar|Open menu)$/ });
  await expect(menuButtons).toHaveCount(1);
  await page.getByRole('button', { name: 'Toggle sidebar' }).click();
  const links = page.getByRole('navigation', { name: 'Menu' });
  await expect(links.getByRole('link', { name: 'My drive' })).toHaveAttribute('aria-current', 'page');
  await links.getByRole('link', { name: 'Pricing' }).click();
  await expect(page).toHaveURL(/\/pricing$/);

  // A page of the app's shell without a sidebar has the menu drawer instead, still one button
  // (the pricing page has a top bar of its own, spec §2).
  await page.goto('/pages/about');
  await expect(menuButtons).toHaveCount(1);
  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect(page.getByRole('dialog', { name: 'Menu' }).getByRole('link', { name: 'Pricing' })).toBeVisible();
});
