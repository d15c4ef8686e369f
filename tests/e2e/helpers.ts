import { expect } from '@playwright/test';
import type { Page } from '@playwright/test';
import { E2E_ADMIN } from './env';

export async function login(page: Page, credentials = E2E_ADMIN): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(credentials.email);
  await page.getByLabel('Password').fill(credentials.password);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/drive$/);
}

/** Waits until a service worker controls the page (first visit claims it). */
export async function waitForServiceWorker(page: Page): Promise<void> {
  await page.waitForFunction(async () => {
    await navigator.serviceWorker.ready;
    return navigator.serviceWorker.controller !== null;
  });
}
