import { expect, test } from '@playwright/test';
import { createFolder, entry, registerFreshUser } from './drive-helpers';

/**
 * Issue 10 finding 6: the app works under its Content-Security-Policy. Every
 * violation is recorded (the securitypolicyviolation event and Chromium's
 * console report) while a person goes through the main screens.
 */
test('the main screens run without a single Content-Security-Policy violation', async ({ page }) => {
  const reports: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) reports.push(message.text());
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const seen = ((window as unknown as { cspViolations?: string[] }).cspViolations ??= []);
      seen.push(`${event.violatedDirective} ${event.blockedURI}`);
    });
  });

  const response = await page.goto('/login');
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
  await registerFreshUser(page);
  await createFolder(page, 'Under policy');
  await entry(page, 'Under policy').dblclick();
  await expect(page.getByRole('heading', { name: 'Under policy' })).toBeVisible();
  await page.goto('/account-settings');
  await expect(page.getByRole('heading', { name: 'Danger Zone' })).toBeVisible();
  await page.goto('/drive');
  await expect(page.getByRole('button', { name: 'New folder' })).toBeVisible();

  const violations = await page.evaluate(() => (window as unknown as { cspViolations?: string[] }).cspViolations ?? []);
  expect(violations).toEqual([]);
  expect(reports).toEqual([]);
});
