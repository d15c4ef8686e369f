import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { latestLink } from './mail-sink';
import { setSetting } from './settings';

// Spec §2/§4 account flows against the built server, with mail read from the
// smtp-server sink that global setup runs.

interface NewUser {
  first: string;
  last: string;
  email: string;
  password: string;
}

let counter = 0;
function newUser(): NewUser {
  counter += 1;
  return { first: 'Grace', last: 'Hopper', email: `grace-${Date.now()}-${counter}@e2e.test`, password: 'first-Password1' };
}

const dataDir = () => process.env.E2E_DATA_DIR ?? '';

async function register(page: Page, user: NewUser): Promise<void> {
  await page.goto('/register');
  await expect(page.getByRole('heading', { name: 'Create a new account' })).toBeVisible();
  await page.getByLabel('First name').fill(user.first);
  await page.getByLabel('Last name').fill(user.last);
  await page.getByLabel('Email', { exact: true }).fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByLabel('Confirm password').fill(user.password);
  await page.getByLabel('I accept the Terms of Service').check();
  await page.getByLabel('I accept the Privacy Policy').check();
  await page.getByRole('button', { name: 'Create account' }).click();
}

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Continue' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Continue' }).click();
}

/** The newest link in a mail to `email`; with `after`, one newer than that (mail goes out through the job queue, after the answer). */
async function mailLink(email: string, pathPart: string, after: string | null = null): Promise<string> {
  let link: string | null = null;
  await expect.poll(() => (link = latestLink(dataDir(), email, pathPart)) !== null && link !== after, { timeout: 10_000 }).toBe(true);
  return link!;
}

test('registration refuses an unchecked policy, naming it on its checkbox', async ({ page }) => {
  const user = newUser();
  await page.goto('/register');
  await page.getByLabel('First name').fill(user.first);
  await page.getByLabel('Last name').fill(user.last);
  await page.getByLabel('Email', { exact: true }).fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByLabel('Confirm password').fill(user.password);
  await page.getByLabel('I accept the Terms of Service').check();
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByLabel('I accept the Privacy Policy')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('You must accept the Privacy Policy.')).toBeVisible();
  await expect(page).toHaveURL(/\/register$/);
});

test.describe('with email confirmation required', () => {
  test.beforeAll(() => setSetting('require_email_confirmation', true));
  test.afterAll(() => setSetting('require_email_confirmation', false));

  test('register → verify-email gate → new verification mail → link → lands on /drive', async ({ page }) => {
    const user = newUser();
    await register(page, user);
    await expect(page.getByRole('heading', { name: 'Verify your email' })).toBeVisible();
    // The gate holds on every route until the address is verified.
    await page.goto('/account-settings');
    await expect(page.getByRole('heading', { name: 'Verify your email' })).toBeVisible();

    // The new mail's link replaces the first one's, which no longer works.
    const first = await mailLink(user.email, '/auth/email/verify');
    await page.getByRole('button', { name: 'request a new verification email' }).click();
    await expect(page.getByText('Email sent')).toBeVisible();

    await page.goto(await mailLink(user.email, '/auth/email/verify', first));
    await expect(page).toHaveURL(/\/drive$/);
    await expect(page.getByText('Your email has been verified.')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Drive' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Verify your email' })).toBeHidden();
  });
});

test('forgot password → mail → reset → sign in with the new password', async ({ page }) => {
  const user = newUser();
  await register(page, user);
  await expect(page).toHaveURL(/\/drive$/);
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);

  await page.getByRole('link', { name: 'Forgot Password? Recover' }).click();
  // The screen loads on demand: wait for it before typing.
  await expect(page.getByRole('heading', { name: 'Forgot password' })).toBeVisible();
  await page.getByLabel('Email').fill(user.email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/login$/);

  const link = await mailLink(user.email, '/password/reset/');
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Reset password' })).toBeVisible();
  await expect(page.getByLabel('Email')).toHaveValue(user.email);
  const newPassword = 'second-Password2';
  await page.getByLabel('New password').fill(newPassword);
  await page.getByLabel('Confirm password').fill(newPassword);
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('Your password has been reset!')).toBeVisible();

  // The old password is gone; the new one works.
  await signIn(page, user.email, user.password);
  await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
  await signIn(page, user.email, newPassword);
  await expect(page).toHaveURL(/\/drive$/);
});

test('a profile edit persists after the reload', async ({ page }) => {
  const user = newUser();
  await register(page, user);
  await expect(page).toHaveURL(/\/drive$/);
  await page.goto('/account-settings');
  await expect(page.getByRole('heading', { name: 'Account settings' })).toBeVisible();
  await expect(page.getByText('View and update your account details, profile and more.')).toBeVisible();
  for (const section of ['Update name and profile image', 'Update Password', 'Date, Time And Language', 'Danger Zone']) {
    await expect(page.getByRole('heading', { name: section })).toBeVisible();
  }

  const company = page.getByLabel('Company');
  await expect(company).toHaveValue('');
  await company.fill('Acme Analytical Engines');
  await page.getByLabel('First name').fill('Amazing');
  const reloaded = page.waitForEvent('load');
  await page.locator('#profile').getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Updated account details')).toBeVisible();
  await reloaded;

  await expect(page.getByLabel('Company')).toHaveValue('Acme Analytical Engines');
  await expect(page.getByLabel('First name')).toHaveValue('Amazing');
  await page.reload();
  await expect(page.getByLabel('Company')).toHaveValue('Acme Analytical Engines');
  await expect(page.getByRole('button', { name: 'Account menu' })).toContainText('Amazing');
});

test('the profile Save button stays disabled while the form is invalid', async ({ page }) => {
  const user = newUser();
  await register(page, user);
  await expect(page).toHaveURL(/\/drive$/);
  await page.goto('/account-settings');
  const save = page.locator('#profile').getByRole('button', { name: 'Save' });
  await page.getByLabel('Office email').fill('not an email');
  await expect(save).toBeDisabled();
  await page.getByLabel('Office email').fill(user.email);
  await expect(save).toBeEnabled();
});

test('deleting the account logs out to /login', async ({ page }) => {
  const user = newUser();
  await register(page, user);
  await expect(page).toHaveURL(/\/drive$/);
  await page.goto('/account-settings');
  await page.getByRole('button', { name: 'Delete account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete account' });
  // The current password confirms it (issue 10): a wrong one keeps the account.
  await dialog.getByLabel('Current password').fill('not my password');
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('The current password is incorrect.')).toBeVisible();
  await dialog.getByLabel('Current password').fill(user.password);
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('Account deleted')).toBeVisible();

  await signIn(page, user.email, user.password);
  await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
  await page.goto('/drive');
  await expect(page).toHaveURL(/\/login/);
});
