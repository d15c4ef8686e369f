import { expect, request, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { E2E_ADMIN, E2E_BASE_URL } from './env';

// Issue 36 in Chromium against the built server: an authenticator app set up
// and used with codes this test computes, as the phone would.

const STEP_MS = 30_000;
let counter = 0;

// Each test signs in three times and may wait out the end of a 30-second code step (up to 4 s) before a code.
test.describe.configure({ timeout: 60_000 });

function newUser() {
  counter += 1;
  return { email: `totp-${Date.now()}-${counter}@e2e.test`, password: 'first-Password1' };
}

async function register(page: Page, user: { email: string; password: string }): Promise<void> {
  await page.goto('/register');
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Lovelace');
  await page.getByLabel('Email', { exact: true }).fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByLabel('Confirm password').fill(user.password);
  await page.getByLabel('I accept the Terms of Service').check();
  await page.getByLabel('I accept the Privacy Policy').check();
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).not.toHaveURL(/\/register/);
}

const code = (secret: string, offsetMs = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: Date.now() + offsetMs });

/** Keeps a code computed now inside its step until the server checks it. */
async function awayFromStepEnd(): Promise<void> {
  const left = STEP_MS - (Date.now() % STEP_MS);
  if (left < 4000) await new Promise((resolve) => setTimeout(resolve, left + 100));
}

test('an authenticator app is set up from Account settings and asked for at the next sign-in', async ({ page }) => {
  const user = newUser();
  await register(page, user);
  await page.goto('/account-settings');
  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').replace(/\s/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await awayFromStepEnd();
  await page.getByLabel('Code from the app').fill(code(secret));
  await page.getByRole('button', { name: 'Confirm' }).click();
  const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const recovery = (await codes.first().textContent()) ?? '';
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByText('Two-factor sign-in is on.')).toBeVisible();

  // Signed out, the password alone reaches only the second step.
  await page.context().clearCookies();
  await page.goto('/login');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
  expect((await page.request.get('/api/v1/bootstrap-data')).ok()).toBe(true);
  expect((await (await page.request.get('/api/v1/bootstrap-data')).json()).data.user).toBeNull();
  // The code the confirmation used is spent: the phone's next one (a step ahead is accepted).
  await page.getByLabel('Authentication code').fill(code(secret, STEP_MS));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/drive/);

  // A recovery code signs in once.
  await page.context().clearCookies();
  await page.goto('/login');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await page.getByLabel('Recovery code').fill(recovery);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/drive/);
});

test('a passkey is registered, named, and signs in without a password (DevTools virtual authenticator)', async ({ page }) => {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', ctap2Version: 'ctap2_1', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
  const user = newUser();
  await register(page, user);
  await page.goto('/account-settings');
  await page.getByLabel('Passkey name').fill('Work laptop');
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  const list = page.getByRole('list', { name: 'Passkeys' });
  await expect(list.getByText('Work laptop')).toBeVisible();
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]!.isResidentCredential).toBe(true);

  // Signed out: no address, no password, only the passkey.
  await page.context().clearCookies();
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page).toHaveURL(/\/drive/);
  expect((await (await page.request.get('/api/v1/bootstrap-data')).json()).data.user.email).toBe(user.email);

  // Without user verification the passkey is refused.
  await page.context().clearCookies();
  await cdp.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified: false });
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByText('The passkey was not accepted.')).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
});

/** A call of the admin API, signed in as the e2e admin (as tests/e2e/settings.ts does). */
async function asAdmin<T>(method: 'GET' | 'POST', path: string, data?: unknown): Promise<T> {
  const context = await request.newContext({ baseURL: E2E_BASE_URL });
  try {
    await context.get('/api/v1/health');
    const xsrf = async () => (await context.storageState()).cookies.find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
    const login = await context.post('/auth/login', { data: { ...E2E_ADMIN, remember: false }, headers: { 'X-XSRF-TOKEN': await xsrf() } });
    if (!login.ok()) throw new Error(`admin sign-in failed: ${login.status()}`);
    const res = await context.fetch(path, { method, data, headers: { 'X-XSRF-TOKEN': await xsrf() } });
    if (!res.ok()) throw new Error(`${method} ${path}: ${res.status()} ${await res.text()}`);
    return (await res.json()) as T;
  } finally {
    await context.dispose();
  }
}

test('a role that requires two-factor sends its holder to the set-up, which a reload keeps, and then into the drive', async ({ page }) => {
  const { roles } = await asAdmin<{ roles: { id: number; name: string; default: boolean; type: string }[] }>('GET', '/api/v1/admin/roles');
  const base = roles.find((role) => role.default && role.type === 'sitewide')!;
  const strict = await asAdmin<{ role: { id: number } }>('POST', '/api/v1/admin/roles', {
    name: `Needs two-factor ${Date.now()}`,
    type: 'sitewide',
    require_two_factor: true,
    permissions: [],
  });
  const user = newUser();
  await asAdmin('POST', '/api/v1/admin/users', {
    email: user.email,
    password: user.password,
    first_name: 'Grace',
    last_name: 'Hopper',
    verified: true,
    roles: [base.id, strict.role.id],
    current_password: E2E_ADMIN.password,
  });

  await page.goto('/login');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Set up two-factor sign-in' })).toBeVisible();
  // Nothing of the account before the set-up; a reload comes back to it.
  expect((await (await page.request.get('/api/v1/bootstrap-data')).json()).data.user).toBeNull();
  await page.goto('/drive');
  await expect(page.getByRole('heading', { name: 'Set up two-factor sign-in' })).toBeVisible();

  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
  const secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').replace(/\s/g, '');
  await awayFromStepEnd();
  await page.getByLabel('Code from the app').fill(code(secret));
  await page.getByRole('button', { name: 'Confirm' }).click();
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByText('Two-factor sign-in is on.')).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/drive/);
  expect((await (await page.request.get('/api/v1/bootstrap-data')).json()).data.user.email).toBe(user.email);
});
