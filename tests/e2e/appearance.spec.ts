import { expect, test, type Frame, type Page } from '@playwright/test';
import { login } from './helpers';
import { E2E_BASE_URL } from './env';

const primaryIn = (frame: Frame) => frame.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--be-primary').trim());

async function previewFrame(page: Page): Promise<Frame> {
  const frame = page.frameLocator('iframe[title="Preview"]');
  // The app in the frame listens once it runs: the server's preview of /drive shows the same buttons first (inert,
  // with no app behind them to take the editor's messages), so wait for the app's render to replace it.
  await expect(frame.getByRole('button', { name: 'Upload', exact: true }).first()).toBeVisible({ timeout: 30_000 });
  await expect(frame.locator('#root')).not.toHaveAttribute('inert', { timeout: 30_000 });
  const found = page.frames().find((f) => f !== page.mainFrame() && f.url().includes('/drive'));
  if (!found) throw new Error('no preview frame');
  return found;
}

test('the appearance editor previews a theme colour live; Cancel leaves the site as it was, Save stores it', async ({ page }) => {
  test.setTimeout(120_000);
  await login(page);
  await page.goto('/admin/appearance');
  let frame = await previewFrame(page);
  const original = await primaryIn(frame);
  expect(original).toMatch(/^\d+ \d+ \d+$/);

  const picker = page.locator('input[type="color"][data-variable="--be-primary"]');
  await picker.fill('#ff0000');
  // Before any save, the previewed app already has the new colour.
  await expect.poll(() => primaryIn(frame)).toBe('255 0 0');

  // Logout is refused inside the preview: the admin stays signed in.
  const inFrame = page.frameLocator('iframe[title="Preview"]');
  await inFrame.getByRole('button', { name: 'Account menu' }).click();
  await inFrame.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(inFrame.getByText("Can't logout while in appearance editor.")).toBeVisible();
  expect(frame.url()).toContain('/drive');

  await page.getByRole('button', { name: 'Cancel' }).click();
  frame = await previewFrame(page);
  await expect.poll(() => primaryIn(frame)).toBe(original);
  const site = await page.request.get(`${E2E_BASE_URL}/api/v1/bootstrap-data`);
  const light = (await site.json()).data.themes.all.find((t: { default_light: boolean }) => t.default_light);
  expect(light.colors['--be-primary']).toBe(original);

  await picker.fill('#00aa00');
  await expect.poll(() => primaryIn(frame)).toBe('0 170 0');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Saved appearance')).toBeVisible();
  await page.goto('/no-such-page');
  await expect.poll(() => page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--be-primary').trim())).toBe('0 170 0');

  // Put the shipped colour back for the other specs.
  await page.goto('/admin/appearance');
  await previewFrame(page);
  const [r, g, b] = original.split(' ').map(Number) as [number, number, number];
  await picker.fill(`#${[r, g, b].map((n) => n.toString(16).padStart(2, '0')).join('')}`);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Saved appearance')).toBeVisible();
});

test('a line translated in the admin area shows to Turkish visitors', async ({ page, browser }) => {
  test.setTimeout(90_000);
  await login(page);
  await page.goto('/admin/localizations');
  await page.getByRole('row').filter({ hasText: 'Türkçe' }).getByRole('link', { name: 'Translate' }).click();
  await page.getByLabel('Search lines').fill('Take me there!');
  const translation = page.getByLabel('Translation of Take me there!');
  await expect(translation).toHaveValue('Beni oraya götür!');
  await translation.fill('Hadi oraya uçalım!');
  await page.getByRole('button', { name: /Save 1 change/ }).click();
  await expect(page.getByText('Saved translations')).toBeVisible();

  const visitor = await browser.newContext({ baseURL: E2E_BASE_URL });
  await visitor.addCookies([{ name: 'locale', value: 'tr', url: E2E_BASE_URL }]);
  const turkish = await visitor.newPage();
  await turkish.goto('/no-such-page');
  await expect(turkish.getByRole('link', { name: 'Hadi oraya uçalım!' })).toBeVisible();
  await visitor.close();

  // An emptied line brings the shipped translation back.
  await translation.fill('');
  await page.getByRole('button', { name: /Save 1 change/ }).click();
  await expect(page.getByText('Saved translations')).toBeVisible();
  await expect(translation).toHaveValue('Beni oraya götür!');
});
