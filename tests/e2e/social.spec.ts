import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { OAuth2Server } from 'oauth2-mock-server';
import { setSetting, setSettings } from './settings';

// Spec §4 "Social login" through the real popup against oauth2-mock-server as
// the Google (OpenID Connect) provider. Settings have no API yet, so the spec
// writes them into the run's database.

const MOCK_PORT = 2527;
const provider = new OAuth2Server();
let person = { sub: 'google-1', email: 'nobody@e2e.test', given_name: 'Ada', family_name: 'Byron' };

test.beforeAll(async () => {
  await provider.issuer.keys.generate('RS256');
  await provider.start(MOCK_PORT, '127.0.0.1');
  provider.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }) => {
    Object.assign(token.payload, person, { email_verified: true });
  });
  await setSettings({
    'social.google.client_id': 'e2e-client',
    'social.google.client_secret': 'e2e-secret',
    'social.google.issuer': provider.issuer.url,
    'social.google.enable': true,
  });
});

test.afterAll(async () => {
  await setSetting('social.google.enable', false);
  await provider.stop();
});

async function continueWithGoogle(page: Page): Promise<void> {
  // The popup's whole round trip (provider, callback, message, close) can finish before the click's promise
  // settles: a 'close' that already happened is never emitted again, so look before waiting for it.
  const closed = page.waitForEvent('popup').then((popup) => (popup.isClosed() ? undefined : popup.waitForEvent('close')));
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await closed;
}

test('only the enabled provider gets a button', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Continue with Google' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Continue with Facebook' })).toHaveCount(0);
});

test('a new person signs in through the popup and lands on /drive', async ({ page }) => {
  person = { ...person, sub: `google-${Date.now()}`, email: `social-${Date.now()}@e2e.test` };
  await page.goto('/login');
  await continueWithGoogle(page);
  await expect(page).toHaveURL(/\/drive$/);
  await expect(page.getByRole('button', { name: 'Account menu' })).toContainText('Ada');

  // The account settings list the connected provider, which can be disconnected.
  await page.goto('/account-settings');
  const panel = page.locator('#social');
  await expect(panel).toContainText('Google');
  await panel.getByRole('button', { name: 'Disconnect Google' }).click();
  await expect(panel.getByRole('button', { name: 'Connect Google' })).toBeVisible();
});

test('an existing account by email asks for its password, then signs in', async ({ page }) => {
  const email = `existing-${Date.now()}@e2e.test`;
  const password = 'existing-Password1';
  await page.goto('/register');
  await page.getByLabel('First name').fill('Existing');
  await page.getByLabel('Last name').fill('Person');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password').fill(password);
  await page.getByLabel('I accept the Terms of Service').check();
  await page.getByLabel('I accept the Privacy Policy').check();
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/drive$/);
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);

  person = { ...person, sub: `google-${Date.now()}`, email };
  await continueWithGoogle(page);
  const dialog = page.getByRole('dialog', { name: 'Password required' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Password').fill('not-the-password');
  await dialog.getByRole('button', { name: 'Connect' }).click();
  await expect(dialog.getByLabel('Password')).toHaveAttribute('aria-invalid', 'true');
  await dialog.getByLabel('Password').fill(password);
  await dialog.getByRole('button', { name: 'Connect' }).click();
  await expect(page).toHaveURL(/\/drive$/);
});
