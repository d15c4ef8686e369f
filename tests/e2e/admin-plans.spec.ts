import { expect, test } from '@playwright/test';
import { login } from './helpers';

test('an admin creates a plan with a price and it is on /pricing; hidden, it is gone', async ({ page, browser }) => {
  test.setTimeout(90_000);
  const name = `Studio ${Date.now().toString(36)}`;
  await login(page);

  await page.goto('/admin/plans');
  await page.getByRole('button', { name: 'Add plan' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByLabel('Description').fill('For studios that keep big files.');
  await dialog.getByRole('button', { name: 'Add feature' }).click();
  await dialog.getByLabel('Feature 1', { exact: true }).fill('250 GB for your projects');
  await dialog.getByLabel('Storage space (GB)').fill('250');

  // A bad amount is refused with the field named, and nothing is saved.
  await dialog.getByLabel('Amount').fill('0');
  await dialog.getByRole('button', { name: 'Add price' }).click();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('The amount field must be at least 1.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Remove', exact: true }).click();

  await dialog.getByLabel('Amount').fill('14.99');
  await dialog.getByLabel('Interval').selectOption('month');
  await dialog.getByRole('button', { name: 'Add price' }).click();
  await dialog.getByLabel('Amount').fill('149');
  await dialog.getByLabel('Interval').selectOption('year');
  await dialog.getByRole('button', { name: 'Add price' }).click();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Created plan')).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('$14.99');

  const guest = await browser.newContext();
  const pricing = await guest.newPage();
  await pricing.goto('/pricing');
  await expect(pricing.getByText(name)).toBeVisible();
  await expect(pricing.getByText('250 GB for your projects')).toBeVisible();
  await expect(pricing.getByText('$149')).toBeVisible();

  await guest.close();

  await row.getByRole('button', { name: 'Hide' }).click();
  await expect(row).toContainText('Hidden');
  // A new visitor (a returning one keeps the plans it read for up to 30 s, like every list).
  const later = await browser.newContext();
  const again = await later.newPage();
  await again.goto('/pricing');
  await expect(again.getByText('Pro', { exact: true }).first()).toBeVisible();
  await expect(again.getByText(name)).toHaveCount(0);
  await later.close();

  await page.getByRole('link', { name: 'Activity log' }).click();
  await expect(page.getByRole('cell', { name: 'plan.updated' }).first()).toBeVisible();
});
