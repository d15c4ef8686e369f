import { expect, test } from '@playwright/test';
import type { Locator, Page } from '@playwright/test';
import { createFolder, entry, registerFreshUser } from './drive-helpers';
import { login } from './helpers';

type Box = { x: number; y: number; width: number; height: number };

/**
 * A phone's width (issue 32): nothing is wider than the screen. Every admin section
 * and every drive dialog is opened at 390 px and the document may not scroll sideways.
 */
test.use({ viewport: { width: 390, height: 844 } });

async function expectNothingWider(page: Page, where: string): Promise<void> {
  // Measured once the page's lists have arrived (the event stream keeps the network busy, so not networkidle).
  await expect(page.locator('[aria-busy="true"], [role="progressbar"]')).toHaveCount(0);
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(await overflow(), `${where}: px wider than the screen`).toBeLessThanOrEqual(0);
}

const ADMIN_SECTIONS = [
  ['dashboard', 'Dashboard'],
  ['health', 'Health'],
  ['users', 'Users'],
  ['roles', 'Roles'],
  ['settings', 'Settings'],
  ['files', 'Files'],
  ['workspaces', 'Workspaces'],
  ['plans', 'Plans'],
  ['subscriptions', 'Subscriptions'],
  ['activity', 'Activity log'],
  ['appearance', 'Appearance'],
  ['themes', 'Themes'],
  ['localizations', 'Localizations'],
  ['pages', 'Pages'],
  ['menus', 'Menus'],
] as const;

test('every admin section fits a 390 px screen and is reached from the folded section list', async ({ page }) => {
  // Fifteen sections, each loaded and measured.
  test.setTimeout(120_000);
  await login(page);
  await page.goto('/admin/dashboard');
  const nav = page.getByRole('navigation', { name: 'Admin' });
  const toggle = nav.getByRole('button', { name: /Admin/ });
  for (const [path, label] of ADMIN_SECTIONS) {
    // The list folds behind one button naming the current section; each section is one tap away.
    await toggle.click();
    await nav.getByRole('link', { name: label, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/${path}$`));
    await expect(toggle).toContainText(label);
    await expect(nav.getByRole('link', { name: label, exact: true })).toBeHidden();
    await expect(page.locator('main h1, main h2').first()).toBeVisible();
    await expectNothingWider(page, `/admin/${path}`);
  }

  // The users table stacks each row: every column is on screen with its name.
  await page.goto('/admin/users');
  const firstRow = page.getByRole('table', { name: 'Users' }).locator('tbody tr').first();
  const created = firstRow.locator('td[data-label="Created"]');
  await expect(created).toBeVisible();
  const box = (await created.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(390);
});

/** Every button of a dialog can be brought on screen and lies within the screen's width once there. */
async function expectButtonsReachable(page: Page, dialog: Locator, where: string): Promise<void> {
  const { width, height } = page.viewportSize()!;
  const buttons = await dialog.getByRole('button').all();
  expect(buttons.length, `${where}: buttons`).toBeGreaterThan(0);
  for (const button of buttons) {
    await button.scrollIntoViewIfNeeded();
    const box = (await button.boundingBox())!;
    const name = (await button.getAttribute('aria-label')) ?? (await button.innerText());
    expect(box.x, `${where}: "${name}" starts off screen`).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, `${where}: "${name}" ends past the screen's width`).toBeLessThanOrEqual(width);
    expect(box.y + box.height, `${where}: "${name}" below the screen`).toBeLessThanOrEqual(height);
  }
}

const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

test('every drive dialog fits a 390 px screen with every button on it', async ({ page }) => {
  test.setTimeout(120_000);
  await registerFreshUser(page);
  await expectNothingWider(page, '/drive');

  await page.getByRole('button', { name: 'New folder' }).click();
  const newFolder = page.getByRole('dialog', { name: 'New folder' });
  await expectNothingWider(page, 'New folder');
  await expectButtonsReachable(page, newFolder, 'New folder');
  await newFolder.getByLabel('Name').fill('A folder with a rather long name for a phone');
  await newFolder.getByRole('button', { name: 'Create' }).click();
  await expect(newFolder).toBeHidden();
  await createFolder(page, 'Target');
  const folder = entry(page, 'A folder with a rather long name for a phone');

  const dialogs = [
    ['Rename', 'Rename'],
    ['Share', 'Share "A folder with a rather long name for a phone"'],
    ['Move to', /^Move/],
  ] as const;
  for (const [action, title] of dialogs) {
    await folder.click({ button: 'right' });
    await page.getByRole('menuitem', { name: action, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: title });
    await expect(dialog).toBeVisible();
    await expectNothingWider(page, action);
    await expectButtonsReachable(page, dialog, action);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  }

  // Details is a panel beside the listing: on a phone it may not widen the page either.
  await folder.click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Details', exact: true }).click();
  const details = page.getByRole('complementary', { name: 'Details' });
  await expect(details).toBeVisible();
  await expectNothingWider(page, 'Details');
  await expectButtonsReachable(page, details, 'Details');
});

test('the document screen on a phone: a tall writing area, rename from the title and a download', async ({ page }) => {
  test.setTimeout(120_000);
  await registerFreshUser(page);
  await page.getByRole('button', { name: 'New document' }).click();
  const editor = page.locator('.ql-editor');
  await expect(editor).toHaveAttribute('contenteditable', 'true');
  await expectNothingWider(page, '/doc');
  // It was one line tall (issue 32.8).
  expect((await editor.boundingBox())!.height).toBeGreaterThanOrEqual(250);
  await expectButtonsReachable(page, page.locator('main header'), '/doc header');

  const title = page.getByRole('textbox', { name: 'Document name' });
  await expect(title).toHaveValue('Untitled document');
  await title.fill('Mobile plan');
  await title.press('Enter');
  await expect(title).toHaveValue('Mobile plan');
  await editor.click();
  await page.keyboard.type('Written on a phone.');

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download' }).click();
  expect((await download).suggestedFilename()).toBe('Mobile plan.docx');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-status', 'saved');

  await page.getByRole('link', { name: 'Back to drive' }).click();
  await expect(entry(page, 'Mobile plan.docx')).toBeVisible();
});

test("a toast leaves the members dialog's Close button uncovered, and the footer ends above the cookie bar", async ({ page }) => {
  test.setTimeout(120_000);
  await registerFreshUser(page);
  await page.getByRole('button', { name: 'Toggle sidebar' }).click();
  await page.getByRole('button', { name: 'Workspaces' }).click();
  await page.getByRole('dialog', { name: 'Workspaces' }).getByRole('button', { name: 'Create new workspace' }).click();
  const create = page.getByRole('dialog', { name: 'Create workspace' });
  await create.getByLabel('Name').fill('Phone team');
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(create).toBeHidden();
  if (!(await page.getByRole('button', { name: 'Workspaces' }).isVisible())) await page.getByRole('button', { name: 'Toggle sidebar' }).click();
  await page.getByRole('button', { name: 'Workspaces' }).click();
  await page.getByRole('dialog', { name: 'Workspaces' }).getByRole('button', { name: 'Manage' }).click();
  await page.getByRole('menuitem', { name: 'Members' }).click();
  const members = page.getByRole('dialog', { name: 'Manage workspace members' });
  await members.getByRole('textbox', { name: 'Enter email addresses' }).fill(`phone-invitee-${Date.now()}@e2e.test`);
  await members.getByRole('textbox', { name: 'Enter email addresses' }).press('Enter');
  await members.getByRole('button', { name: 'Invite', exact: true }).click();
  const toast = page.locator('[data-toast-id]').filter({ hasText: 'Invite sent' });
  await expect(toast).toBeVisible();
  await expectNothingWider(page, 'Members');
  const close = members.getByRole('button', { name: 'Close', exact: true });
  expect(overlaps((await toast.boundingBox())!, (await close.boundingBox())!), 'the toast covers Close').toBe(false);
  await close.click();
  await expect(members).toBeHidden();

  // A page shorter than the screen: its footer's links sit above the bottom cookie bar without a scroll.
  await page.goto('/pages/privacy-policy');
  const bar = page.getByRole('region', { name: 'Cookie notice' });
  await expect(bar).toBeVisible();
  const barTop = (await bar.boundingBox())!.y;
  const links = page.getByRole('navigation', { name: 'Footer' }).getByRole('link');
  await expect(links.first()).toBeVisible();
  for (const link of await links.all()) {
    const box = (await link.boundingBox())!;
    expect(box.y + box.height, `${await link.innerText()} under the cookie bar`).toBeLessThanOrEqual(barTop);
  }
});
