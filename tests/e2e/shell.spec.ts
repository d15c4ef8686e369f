import { expect, test } from '@playwright/test';
import { setSetting } from './settings';
import { E2E_ADMIN } from './env';
import { login, waitForServiceWorker } from './helpers';

test.describe('route guards', () => {
  test('a guest at /drive is sent to /login, then lands on the target after signing in', async ({ page }) => {
    await page.goto('/drive');
    await expect(page).toHaveURL(/\/login\?redirect=%2Fdrive$/);
    await page.getByLabel('Email').fill(E2E_ADMIN.email);
    await page.getByLabel('Password').fill(E2E_ADMIN.password);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/\/drive$/);
    await expect(page.getByRole('heading', { name: 'Drive' })).toBeVisible();
  });

  test('a signed-in user at /login goes to /drive', async ({ page }) => {
    await login(page);
    await page.goto('/login');
    await expect(page).toHaveURL(/\/drive$/);
  });

  test('a session that ended while away: the app opens /login as the sign-in form, which keeps what is typed', async ({ page }) => {
    // The service worker answers /login with the shell (no bootstrap data in the page), so the app starts from the
    // copy the device saved while signed in; the server then answers that nobody is. A redirect to /drive decided on
    // the copy used to land after that answer and come back to a new, empty form (/login?redirect=%2Fdrive).
    await login(page);
    await waitForServiceWorker(page);
    await page.context().clearCookies();
    const visited: string[] = [];
    page.on('framenavigated', (frame) => {
      const { pathname, search } = new URL(frame.url());
      if (frame === page.mainFrame() && visited.at(-1) !== pathname + search) visited.push(pathname + search);
    });
    const answered = page.waitForResponse((response) => response.url().endsWith('/api/v1/bootstrap-data'));
    await page.goto('/login');
    await page.getByLabel('Email').fill(E2E_ADMIN.email);
    expect(await (await answered).json()).toMatchObject({ data: { user: null } });
    // Whatever the copy would have started has had its time: /drive's code (cached by the worker) and the way back.
    await page.waitForLoadState('networkidle');
    await page.getByLabel('Password').fill(E2E_ADMIN.password);
    await expect(page.getByLabel('Email')).toHaveValue(E2E_ADMIN.email);
    expect(visited).toEqual(['/login']);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/\/drive$/);
  });

  test('wrong credentials put the server field error on the form', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('Email').fill(E2E_ADMIN.email);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Continue' }).click();
    // The server's field error lands on the field, which gets focus (spec §8).
    const email = page.getByLabel('Email');
    await expect(email).toHaveAttribute('aria-invalid', 'true');
    await expect(email).toBeFocused();
    await expect(page.locator('#login-email-error')).toHaveText('These credentials do not match our records.');
    await expect(page).toHaveURL(/\/login/);
  });

  test('logout from the user menu returns to /login', async ({ page }) => {
    await login(page);
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto('/drive');
    await expect(page).toHaveURL(/\/login/);
  });
});

test('unknown paths show the 404 page', async ({ page }) => {
  await page.goto('/no/such/place');
  await expect(page.getByRole('heading', { name: "Looks like you've found the doorway to the great nothing" })).toBeVisible();
  await page.getByRole('link', { name: 'Take me there!' }).click();
  await expect(page).not.toHaveURL(/no\/such\/place/);
});

test('switching the language to Turkish changes the login placeholders', async ({ page }) => {
  await page.goto('/login');
  const email = page.getByLabel(/^(Email|E-posta)$/);
  await expect(email).toHaveAttribute('placeholder', 'Email');
  await page.getByRole('button', { name: 'Language' }).click();
  await page.getByRole('button', { name: 'Türkçe' }).click();
  await expect(email).not.toHaveAttribute('placeholder', 'Email');
  await expect(page.getByRole('button', { name: 'Devam et' })).toBeVisible();
});

test('the dark/light toggle survives a reload', async ({ page }) => {
  await page.goto('/pages/about');
  const html = page.locator('html');
  await expect(html).not.toHaveClass(/dark/);
  await page.getByRole('button', { name: 'Dark mode' }).click();
  await expect(html).toHaveClass(/dark/);
  await page.reload();
  await expect(html).toHaveClass(/dark/);
  await expect(page.getByRole('button', { name: 'Light mode' })).toBeVisible();
});

test('the cookie notice stays dismissed after OK and a reload', async ({ page }) => {
  await page.goto('/pages/about');
  const notice = page.getByRole('region', { name: 'Cookie notice' });
  await expect(notice).toContainText('We use cookies to optimize site functionality');
  await notice.getByRole('button', { name: 'OK' }).click();
  await expect(notice).toBeHidden();
  const cookie = (await page.context().cookies()).find((c) => c.name === 'cookie_notice');
  expect(cookie?.value).toBe('true');
  // 30 days, give or take the seconds this test took.
  expect(cookie!.expires * 1000 - Date.now()).toBeGreaterThan(29.9 * 24 * 3600 * 1000);
  await page.reload();
  // No page 'about' exists on a fresh site: the app's not-found screen.
  await expect(page.getByRole('heading', { name: "Looks like you've found the doorway to the great nothing" })).toBeVisible();
  await expect(notice).toBeHidden();
});

test.describe('installable app', () => {
  test('the manifest is valid and linked', async ({ page, request }) => {
    await page.goto('/login');
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).toBeTruthy();
    const response = await request.get(href!);
    expect(response.ok()).toBe(true);
    const manifest = (await response.json()) as {
      name: string;
      short_name: string;
      start_url: string;
      display: string;
      theme_color: string;
      background_color: string;
      icons: { src: string; sizes: string; purpose?: string }[];
    };
    expect(manifest.name).toBeTruthy();
    expect(manifest.short_name).toBeTruthy();
    expect(manifest.start_url).toBe('/');
    expect(manifest.display).toBe('standalone');
    expect(manifest.theme_color).toMatch(/^#/);
    expect(manifest.background_color).toMatch(/^#/);
    const sizes = manifest.icons.map((i) => `${i.sizes}:${i.purpose ?? 'any'}`);
    expect(sizes).toEqual(expect.arrayContaining(['192x192:any', '512x512:any', '192x192:maskable', '512x512:maskable']));
    for (const icon of manifest.icons) {
      const image = await request.get(icon.src);
      expect(image.ok()).toBe(true);
      expect(image.headers()['content-type']).toContain('image/png');
    }
  });

  test('the manifest follows the site’s branding, also when the service worker answers', async ({ page }) => {
    await setSetting('branding.site_name', 'Acme Files');
    try {
      await page.goto('/login');
      await waitForServiceWorker(page);
      await page.reload();
      const name = await page.evaluate(async () => ((await (await fetch('/manifest.webmanifest')).json()) as { name: string }).name);
      expect(name).toBe('Acme Files');
    } finally {
      await setSetting('branding.site_name', 'Drive');
    }
  });

  test('the service worker controls the page', async ({ page }) => {
    await page.goto('/login');
    await waitForServiceWorker(page);
    const scriptURL = await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL);
    expect(scriptURL).toMatch(/\/sw\.js$/);
  });

  test('a reload while offline still renders the shell with the offline indicator', async ({ page, context }) => {
    await login(page);
    await waitForServiceWorker(page);
    await expect(page.getByRole('heading', { name: 'Drive' })).toBeVisible();
    await context.setOffline(true);
    await page.reload();
    await expect(page.getByTestId('offline-indicator')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Drive' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
    await context.setOffline(false);
  });
});

test('the API documentation opens for a user with api.access and is guarded for guests', async ({ page }) => {
  await page.goto('/api-docs');
  await expect(page).toHaveURL(/\/login\?redirect=%2Fapi-docs/);
  await login(page);
  await page.goto('/api-docs');
  const docs = page.frameLocator('iframe[title="API documentation"]');
  // Swagger UI builds the page from the whole OpenAPI document: on a busy 2-core runner that takes seconds.
  await expect(docs.getByText('Drive API').first()).toBeVisible({ timeout: 15_000 });
  // Sections start folded (160 calls drawn at once took longer than a page should), and open on a click.
  await docs.locator('.opblock-tag', { hasText: 'bootstrap' }).first().click();
  await expect(docs.getByText('/api/v1/bootstrap-data').first()).toBeVisible();
});
