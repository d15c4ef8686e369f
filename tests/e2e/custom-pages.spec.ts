import { expect, test } from '@playwright/test';
import { login } from './helpers';

test('an admin writes a page and links it from the top bar; a guest opens it with its title, body and meta description', async ({ page, browser, request }) => {
  test.setTimeout(90_000);
  const stamp = Date.now();
  const title = `Our team ${stamp}`;
  const slug = `our-team-${stamp}`;
  const description = `Who runs this drive (${stamp})`;
  await login(page);

  await page.goto('/admin/pages');
  await page.getByRole('link', { name: 'New page' }).click();
  await page.getByLabel('Title').fill(title);
  // The slug follows the title until edited.
  await expect(page.getByLabel('Slug')).toHaveValue(slug);
  await page.getByLabel('Meta description').fill(description);
  await page.getByRole('textbox', { name: 'Body' }).click();
  await page.keyboard.type('We keep your files safe.');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Created page')).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/pages\/\d+\/edit$/);

  await page.getByRole('link', { name: 'Menus' }).click();
  await page.getByRole('button', { name: /^Navbar/ }).click();
  await page.getByRole('button', { name: 'Add item' }).click();
  await page.getByLabel('Label').fill('Our team');
  await page.getByLabel('Link').fill(`/pages/${slug}`);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Updated menu')).toBeVisible();

  const guest = await browser.newContext();
  const guestPage = await guest.newPage();
  // Any app screen with the top bar; the guest follows the new link from there.
  await guestPage.goto('/no-such-screen');
  await guestPage.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Our team' }).click();
  await expect(guestPage).toHaveURL(new RegExp(`/pages/${slug}$`));
  await expect(guestPage.getByRole('heading', { name: title })).toBeVisible();
  await expect(guestPage.getByText('We keep your files safe.')).toBeVisible();
  await expect(guestPage.locator('head meta[name="description"]')).toHaveAttribute('content', description);
  await expect(guestPage).toHaveTitle(new RegExp(`^${title}`));
  await guest.close();

  // A direct request (a link preview, a search engine) gets the tags in the HTML itself.
  const html = await (await request.get(`/pages/${slug}`)).text();
  expect(html).toContain(`<meta name="description" content="${description}" data-seo />`);
  expect(html).toContain(`<meta property="og:title" content="${title}" data-seo />`);
});
