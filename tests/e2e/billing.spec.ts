import { expect, test } from '@playwright/test';

// Issue 16: from the pricing page to a paid plan and managing it, against the
// local Stripe double (its hosted checkout page stands in for Stripe's), with
// every change of plan arriving through verified webhooks.

const user = () => ({ email: `buyer-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@e2e.test`, password: 'Buyer-Password-123' });

test('a guest picks the yearly Pro plan, registers, pays, sees the new space and manages the plan', async ({ page }) => {
  const buyer = user();
  await page.goto('/pricing');
  await expect(page.getByRole('heading', { name: 'Choose the right plan for you' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign In' })).toBeVisible();
  for (const name of ['HOME', 'OFFERINGS', 'ABOUT US', 'FEATURES', 'PRICING & PLAN', 'CONTACT']) {
    await expect(page.getByRole('navigation', { name: 'Pricing' }).getByRole('link', { name, exact: true })).toBeVisible();
  }
  // Yearly is the default cycle; monthly shows the monthly price.
  await expect(page.getByRole('radio', { name: /Yearly/ })).toBeChecked();
  const pro = page.getByRole('article', { name: 'Pro' });
  await expect(pro.getByTestId('plan-price')).toContainText('$99.99');
  await expect(pro).toContainText('100 GB of storage');
  // The server wrote the page; the switch takes a choice once the app runs (visually hidden radio: force).
  await expect(page.getByRole('radio', { name: 'Monthly' })).toBeEnabled();
  await page.getByRole('radio', { name: 'Monthly' }).click({ force: true });
  await expect(pro.getByTestId('plan-price')).toContainText('$9.99');
  await page.getByRole('radio', { name: /Yearly/ }).click({ force: true });
  await expect(page.getByRole('article', { name: 'Free' }).getByRole('link', { name: 'Get started' })).toBeVisible();

  await pro.getByRole('link', { name: 'Upgrade' }).click();
  // The pick travels in the link, so a click before the app has run keeps it too.
  await expect(page).toHaveURL(/\/register\?redirectFrom=pricing&product=\d+&price=\d+$/);
  await expect(page.getByRole('heading', { name: "First, let's create your account" })).toBeVisible();
  await page.getByLabel('First name').fill('Pat');
  await page.getByLabel('Last name').fill('Buyer');
  await page.getByLabel('Email', { exact: true }).fill(buyer.email);
  await page.getByLabel('Password', { exact: true }).fill(buyer.password);
  await page.getByLabel('Confirm password').fill(buyer.password);
  await page.getByLabel('I accept the Terms of Service').check();
  await page.getByLabel('I accept the Privacy Policy').check();
  await page.getByRole('button', { name: 'Create account' }).click();

  // The onboarding selection lands on the checkout of the chosen plan and price.
  await expect(page).toHaveURL(/\/checkout\/\d+\/\d+$/);
  const summary = page.getByTestId('checkout-summary');
  await expect(summary).toContainText('Pro');
  await expect(summary).toContainText('$99.99');
  await expect(summary).toContainText('Billed yearly');
  await page.getByRole('button', { name: 'Continue to payment' }).click();

  // The double's hosted checkout page, like Stripe's.
  await expect(page.getByRole('heading', { name: 'Test checkout' })).toBeVisible();
  await expect(page.getByText('Pro: 99.99 USD / year')).toBeVisible();
  await page.getByRole('button', { name: 'Pay' }).click();

  await expect(page).toHaveURL(/\/checkout\/\d+\/\d+\/done\?session_id=cs_test_/);
  await expect(page.getByRole('heading', { name: 'Thank you! Your subscription is active.' })).toBeVisible();
  await expect(page.getByTestId('new-space')).toHaveText('Your storage space is now 100 GB.');

  await page.getByRole('link', { name: 'Go to my drive' }).click();
  await expect(page.getByTestId('storage-summary')).toContainText('of 100 GB used');
  await expect(page.getByRole('link', { name: 'Upgrade' })).toBeVisible();

  await page.goto('/billing');
  const plan = page.getByTestId('current-plan');
  await expect(plan).toContainText('Pro');
  await expect(plan).toContainText('$99.99 / year');
  await expect(page.getByTestId('plan-dates')).toContainText('Renews on');
  await expect(page.getByRole('link', { name: 'Open' }).first()).toBeVisible();

  // Cancel at period end: the plan stays, with its end date.
  await plan.getByRole('button', { name: 'Cancel subscription' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel subscription' }).click();
  await expect(page.getByTestId('plan-dates')).toContainText('Ends on');
  await expect(plan).toContainText('Pro');

  // And resume.
  await plan.getByRole('button', { name: 'Resume subscription' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Resume subscription' }).click();
  await expect(page.getByTestId('plan-dates')).toContainText('Renews on');

  // Change plan: yearly Business, prorated by Stripe; the page follows when the webhook lands.
  await plan.getByRole('button', { name: 'Change plan' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Choose Business' }).click();
  await expect(dialog).toContainText('Switch to Business ($199.99 / year)?');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(plan).toContainText('Business');
  await expect(plan).toContainText('$199.99 / year');
  await expect(plan).toContainText('of 1 TB used');

  // A second visit to the pricing page: the free plan is where a subscriber is not; My File leads to the drive.
  await page.goto('/pricing');
  await expect(page.getByRole('link', { name: 'My File' })).toHaveAttribute('href', '/drive');
});

test('a cancelled payment comes back to the checkout with nothing charged', async ({ page }) => {
  const buyer = user();
  await page.goto('/pricing');
  await page.getByRole('article', { name: 'Business' }).getByRole('link', { name: 'Upgrade' }).click();
  await page.getByLabel('First name').fill('Sam');
  await page.getByLabel('Last name').fill('Browser');
  await page.getByLabel('Email', { exact: true }).fill(buyer.email);
  await page.getByLabel('Password', { exact: true }).fill(buyer.password);
  await page.getByLabel('Confirm password').fill(buyer.password);
  await page.getByLabel('I accept the Terms of Service').check();
  await page.getByLabel('I accept the Privacy Policy').check();
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/checkout\/\d+\/\d+$/);
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/checkout\/\d+\/\d+\?cancelled=1$/);
  await expect(page.getByText('Payment cancelled. You have not been charged.')).toBeVisible();
  await page.goto('/billing');
  await expect(page.getByTestId('current-plan')).toContainText('You are on the free plan.');
});
