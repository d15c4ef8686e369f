import { expect, test } from '@playwright/test';

// Issue 15 item 4: a bottom cookie bar reserves its height, so the page's last
// lines scroll above it and toasts appear above it, not under it.

test.use({ viewport: { width: 390, height: 640 } });

test('the cookie bar hides neither the version label nor a toast', async ({ page }) => {
  await page.goto('/forgot-password');
  // The server wrote the page; the bar's reserved height is set by the app, which starts after the first paint:
  // the form's fields are enabled once it runs (HydratedForm), and only then is the page's end where it stays.
  await expect(page.getByLabel('Email')).toBeEnabled();
  const bar = page.getByRole('region', { name: 'Cookie notice' });
  await expect(bar).toBeVisible();
  const barTop = (await bar.boundingBox())!.y;

  await page.mouse.wheel(0, 5000);
  const version = page.getByText('V 4.02');
  await expect(version).toBeVisible();
  await expect
    .poll(async () => {
      const box = (await version.boundingBox())!;
      return box.y + box.height <= barTop;
    })
    .toBe(true);

  await page.getByLabel('Email').fill(`nobody-${Date.now()}@e2e.test`);
  await page.getByRole('button', { name: 'Continue' }).click();
  const toast = page.locator('[data-toast-id]').first();
  await expect(toast).toBeVisible();
  const box = (await toast.boundingBox())!;
  expect(box.y + box.height).toBeLessThanOrEqual(barTop);
});
