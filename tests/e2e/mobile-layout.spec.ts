import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { login } from './helpers';

/**
 * A phone's width (issue 32): nothing is wider than the screen. Every admin section
 * and every drive dialog is opened at 390 px and the document may not scroll sideways.
 */
test.use({ viewport: { width: 390, height: 844 } });

async function expectNothingWider(page: Page, where: string): Promise<void> {
  // Measured once the page's lists have arrived (the event stream keeps the network busy, so not networkidle).
  await expect(page.locator('[aria-busy="true"], [role="progressbar"]')).toHaveCount(0);
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(await overflow(), `${where}: px wider than the screen`).toBeLessThanOrEqual(0);
}

const ADMIN_SECTIONS = [
  ['dashboard', 'Dashboard'],
  ['health', 'Health'],
  ['users', 'Users'],
  ['roles', 'Roles'],
  ['settings', 'Settings'],
  ['files', 'Files'],
  ['workspaces', 'Workspaces'],
  ['plans', 'Plans'],
  ['subscriptions', 'Subscriptions'],
  ['activity', 'Activity log'],
  ['appearance', 'Appearance'],
  ['themes', 'Themes'],
  ['localizations', 'Localizations'],
  ['pages', 'Pages'],
  ['menus', 'Menus'],
] as const;

test('every admin section fits a 390 px screen and is reached from the folded section list', async ({ page }) => {
  // Fifteen sections, each loaded and measured.
  test.setTimeout(120_000);
  await login(page);
  await page.goto('/admin/dashboard');
  const nav = page.getByRole('navigation', { name: 'Admin' });
  const toggle = nav.getByRole('button', { name: /Admin/ });
  for (const [path, label] of ADMIN_SECTIONS) {
    // The list folds behind one button naming the current section; each section is one tap away.
    await toggle.click();
    await nav.getByRole('link', { name: label, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/${path}$`));
    await expect(toggle).toContainText(label);
    await expect(nav.getByRole('link', { name: label, exact: true })).toBeHidden();
    await expect(page.locator('main h1, main h2').first()).toBeVisible();
    await expectNothingWider(page, `/admin/${path}`);
  }

  // The users table stacks each row: every column is on screen with its name.
  await page.goto('/admin/users');
  const firstRow = page.getByRole('table', { name: 'Users' }).locator('tbody tr').first();
  const created = firstRow.locator('td[data-label="Created"]');
  await expect(created).toBeVisible();
  const box = (await created.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(390);
});
