import { expect, test, type Browser, type Page } from '@playwright/test';
import { waitForServiceWorker } from './helpers';
import { entry, registerFreshUser } from './drive-helpers';
import { latestLink } from './mail-sink';

// Spec §2/§4/§7 team workspaces with two people in two browsers: create,
// invite by email, join through the mailed link, work together, change a
// role, leave — and the workspace list still there offline.

const dataDir = () => process.env.E2E_DATA_DIR!;

async function person(browser: Browser) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const user = await registerFreshUser(page);
  return { context, page, user };
}

function selector(page: Page) {
  return page.getByRole('button', { name: 'Workspaces' });
}

async function openWorkspaceMenu(page: Page) {
  await selector(page).click();
  return page.getByRole('dialog', { name: 'Workspaces' });
}

async function upload(page: Page, name: string, content: string) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Upload', exact: true }).first().click();
  await (await chooser).setFiles([{ name, mimeType: 'text/plain', buffer: Buffer.from(content) }]);
  await expect(entry(page, name)).toBeVisible();
}

test('two people share a workspace: invite, join, work together, change role, leave', async ({ browser }) => {
  const owner = await person(browser);
  const member = await person(browser);

  // The owner creates a workspace; it becomes the active one.
  const menu = await openWorkspaceMenu(owner.page);
  await expect(menu.getByText('Personal Workspace')).toBeVisible();
  await menu.getByRole('button', { name: 'Create new workspace' }).click();
  const create = owner.page.getByRole('dialog', { name: 'Create workspace' });
  await create.getByLabel('Name').fill('Te');
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(create.getByText(/at least 3/)).toBeVisible();
  await create.getByLabel('Name').fill('Team Alpha');
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(owner.page.getByText('Created workspace')).toBeVisible();
  await expect(selector(owner.page)).toContainText('Team Alpha');
  await upload(owner.page, 'plan.txt', 'the plan');

  // …and invites the other person as an editor.
  await openWorkspaceMenu(owner.page);
  await owner.page.getByRole('dialog', { name: 'Workspaces' }).getByRole('button', { name: 'Manage' }).click();
  await owner.page.getByRole('menuitem', { name: 'Members' }).click();
  const members = owner.page.getByRole('dialog', { name: 'Manage workspace members' });
  await members.getByRole('textbox', { name: 'Enter email addresses' }).fill(member.user.email);
  await members.getByRole('textbox', { name: 'Enter email addresses' }).press('Enter');
  await members.getByRole('combobox', { name: 'Role', exact: true }).selectOption({ label: 'Workspace Editor' });
  await members.getByRole('button', { name: 'Invite', exact: true }).click();
  await expect(owner.page.getByText('Invite sent')).toBeVisible();
  await expect(members.getByText('Invited')).toBeVisible();
  await members.getByRole('button', { name: 'Close' }).click();
  await expect(members).toBeHidden();

  // The mailed link signs nobody in: the member, already signed in, lands on the drive and joins there.
  await expect.poll(() => latestLink(dataDir(), member.user.email, '/workspace/join/')).not.toBeNull();
  await member.page.goto(latestLink(dataDir(), member.user.email, '/workspace/join/')!);
  const prompt = member.page.getByRole('region', { name: 'Workspace invitation' });
  await prompt.getByRole('button', { name: 'Join' }).click();
  await expect(member.page.getByText('Joined workspace')).toBeVisible();
  await expect(prompt).toBeHidden();
  await expect(selector(member.page)).toContainText('Team Alpha');
  await expect(entry(member.page, 'plan.txt')).toBeVisible();
  await upload(member.page, 'notes.txt', 'member notes');

  await owner.page.reload();
  await expect(entry(owner.page, 'notes.txt')).toBeVisible();

  // The owner demotes the member to viewer.
  await openWorkspaceMenu(owner.page);
  await owner.page.getByRole('dialog', { name: 'Workspaces' }).getByRole('button', { name: 'Manage' }).click();
  await owner.page.getByRole('menuitem', { name: 'Members' }).click();
  await expect(members).toBeVisible();
  await expect(members.getByText(member.user.email)).toBeVisible();
  await members.getByRole('combobox', { name: /^Role: / }).selectOption({ label: 'Workspace Viewer' });
  await expect(owner.page.getByText('Role changed')).toBeVisible();
  await members.getByRole('button', { name: 'Close' }).click();
  await expect(members).toBeHidden();

  // Demoted to viewer, the member can no longer rename (the server refuses; the entry says so too).
  const xsrf = (await member.context.cookies()).find((c) => c.name === 'XSRF-TOKEN')!.value;
  const workspaceId = (await (await member.page.request.get('/api/v1/me/workspaces')).json()).workspaces[1].id as number;
  const listing = await (await member.page.request.get(`/api/v1/drive/file-entries?workspaceId=${workspaceId}`)).json();
  const notes = (listing.pagination.data as { hash: string; name: string; permissions: string[] }[]).find((e) => e.name === 'notes.txt')!;
  expect(notes.permissions).not.toContain('files.update');
  const refused = await member.page.request.put(`/api/v1/file-entries/${notes.hash}?workspaceId=${workspaceId}`, {
    headers: { 'X-XSRF-TOKEN': xsrf },
    data: { name: 'renamed.txt' },
  });
  expect(refused.status()).toBe(403);

  // Offline, the member's workspace list is still there, painted from IndexedDB.
  await waitForServiceWorker(member.page);
  await member.page.reload();
  await expect(selector(member.page)).toContainText('Team Alpha');
  await member.context.setOffline(true);
  await member.page.reload();
  await expect(member.page.getByTestId('offline-indicator')).toBeVisible();
  await expect(selector(member.page)).toContainText('Team Alpha');
  await member.context.setOffline(false);

  // Leaving goes back to the personal drive; what the member made stays with the owner.
  await member.page.reload();
  await openWorkspaceMenu(member.page);
  await member.page.getByRole('dialog', { name: 'Workspaces' }).getByRole('button', { name: 'Manage' }).click();
  await member.page.getByRole('menuitem', { name: 'Leave' }).click();
  const leave = member.page.getByRole('dialog', { name: 'Leave workspace' });
  await leave.getByRole('button', { name: 'Leave' }).click();
  await expect(member.page.getByText('Left workspace')).toBeVisible();
  await expect(selector(member.page)).toContainText('Private');
  await expect(entry(member.page, 'plan.txt')).toBeHidden();

  await owner.page.reload();
  await expect(entry(owner.page, 'notes.txt')).toBeVisible();
  await owner.context.close();
  await member.context.close();
});
