import { expect } from '@playwright/test';
import type { Locator, Page } from '@playwright/test';

// Drive specs start from an empty drive: each registers its own person.
let counter = 0;

export async function registerFreshUser(page: Page): Promise<{ email: string; password: string }> {
  counter += 1;
  const user = { email: `drive-${Date.now()}-${counter}@e2e.test`, password: 'drive-Password1' };
  await page.goto('/register');
  await expect(page.getByRole('heading', { name: 'Create a new account' })).toBeVisible();
  await page.getByLabel('First name').fill('Dora');
  await page.getByLabel('Last name').fill('Drive');
  await page.getByLabel('Email', { exact: true }).fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByLabel('Confirm password').fill(user.password);
  await page.getByLabel('I accept the Terms of Service').check();
  await page.getByLabel('I accept the Privacy Policy').check();
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/drive$/);
  return user;
}

export function entry(page: Page, name: string): Locator {
  return page.getByRole('option', { name, exact: true });
}

export async function createFolder(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: 'New folder' }).click();
  const dialog = page.getByRole('dialog', { name: 'New folder' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toBeHidden();
  await expect(entry(page, name)).toBeVisible();
}

/** A native drag held over the target past the 400 ms drop activation delay. */
export async function dragOnto(page: Page, source: Locator, target: Locator): Promise<void> {
  await source.hover();
  await page.mouse.down();
  const box = await target.boundingBox();
  if (!box) throw new Error('drop target not visible');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 5 });
  await page.waitForTimeout(600);
  await page.mouse.move(box.x + box.width / 2 + 2, box.y + box.height / 2, { steps: 2 });
  await page.mouse.up();
}

export function sidebar(page: Page): Locator {
  return page.getByRole('navigation', { name: 'Drive' });
}
