import { expect, test, type Browser, type Page } from '@playwright/test';
import { waitForServiceWorker } from './helpers';
import { startPushService } from '../peers/push-service';
import { registerFreshUser } from './drive-helpers';

// Spec §2/§4 notifications in Chromium against the built server: an invite
// reaches the bell without a reload and is accepted from there; mark as read;
// preferences with the indeterminate group box; a web push shown by the
// service worker; the list offline.

async function person(browser: Browser) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const user = await registerFreshUser(page);
  return { context, page, user };
}

async function api(page: Page, method: 'POST' | 'PUT', url: string, data: unknown) {
  const xsrf = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')!.value;
  const response = await page.request.fetch(url, { method, headers: { 'X-XSRF-TOKEN': xsrf }, data });
  expect(response.ok(), await response.text()).toBe(true);
  return response.json();
}

async function invite(owner: Page, email: string, name: string) {
  const { workspace } = await api(owner, 'POST', '/api/v1/workspace', { name });
  const roles = (await (await owner.request.get('/api/v1/workspace-roles')).json()).workspaceRoles as { id: number; name: string }[];
  await api(owner, 'POST', `/api/v1/workspace/${workspace.id}/invite`, { emails: [email], roleId: roles.find((r) => r.name === 'Workspace Editor')!.id });
}

const bell = (page: Page) => page.getByRole('button', { name: /^Notifications/ });

test('an invitation reaches the bell without a reload and is accepted from it; mark all as read; offline list', async ({ browser }) => {
  const owner = await person(browser);
  const member = await person(browser);
  await waitForServiceWorker(member.page);
  await expect(bell(member.page)).toHaveAccessibleName('Notifications');

  await invite(owner.page, member.user.email, 'Bell Team');
  await expect(bell(member.page)).toHaveAccessibleName('Notifications (1 unread)');
  await bell(member.page).click();
  const popover = member.page.getByRole('dialog', { name: 'Notifications' });
  await expect(popover.getByText('invited you to join Bell Team')).toBeVisible();
  await popover.getByRole('button', { name: 'Join', exact: true }).click();
  await expect(member.page.getByText('Joined workspace')).toBeVisible();
  await expect(bell(member.page)).toHaveAccessibleName('Notifications');
  await expect(member.page.getByRole('button', { name: 'Workspaces' })).toContainText('Bell Team');
  await member.page.keyboard.press('Escape');

  await invite(owner.page, member.user.email, 'Second Team');
  await invite(owner.page, member.user.email, 'Third Team');
  await expect(bell(member.page)).toHaveAccessibleName('Notifications (2 unread)');
  await member.page.goto('/notifications');
  await expect(member.page.getByRole('heading', { name: 'Notifications' })).toBeVisible();
  await expect(member.page.getByTestId('notification')).toHaveCount(3);
  await member.page.getByRole('button', { name: 'Mark all as read' }).click();
  await expect(bell(member.page)).toHaveAccessibleName('Notifications');
  await expect(member.page.getByRole('button', { name: 'Mark all as read' })).toBeHidden();

  // Offline, the list paints from IndexedDB.
  await member.context.setOffline(true);
  await member.page.reload();
  await expect(member.page.getByTestId('offline-indicator')).toBeVisible();
  await expect(member.page.getByTestId('notification')).toHaveCount(3);
  await member.context.setOffline(false);
  await owner.context.close();
  await member.context.close();
});

test('preferences: the group box is indeterminate for a partial selection, and saving keeps the choice', async ({ page }) => {
  await registerFreshUser(page);
  await page.goto('/notifications/settings');
  const groupEmail = page.getByRole('checkbox', { name: 'Notify me when… Email' });
  await expect(groupEmail).toBeChecked();
  await page.getByRole('checkbox', { name: 'Someone invites me to a workspace Email' }).uncheck();
  expect(await groupEmail.evaluate((input: HTMLInputElement) => input.indeterminate)).toBe(true);
  await page.getByRole('button', { name: 'Update Preferences' }).click();
  await expect(page.getByText('Updated preferences')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('checkbox', { name: 'Someone invites me to a workspace Email' })).not.toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'Someone shares a file or folder with me Email' })).toBeChecked();
  await groupEmail.click();
  await expect(page.getByRole('checkbox', { name: 'Someone invites me to a workspace Email' })).toBeChecked();
});

test('a web push is shown as a system notification by the service worker', async ({ page, context }) => {
  await context.grantPermissions(['notifications']);
  await registerFreshUser(page);
  await waitForServiceWorker(page);
  const cdp = await context.newCDPSession(page);
  const registrations = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const found = registrations.find((r: { scopeURL: string; isDeleted: boolean }) => !r.isDeleted);
      if (found) resolve(found.registrationId as string);
    });
  });
  await cdp.send('ServiceWorker.enable');
  const registrationId = await registrations;
  const origin = new URL(page.url()).origin;
  const payload = JSON.stringify({ id: 'n-e2e', title: 'Ada shared Plans with you', body: 'Open it from Shared with me.', url: '/drive/shares', tag: 'n-e2e' });
  await expect
    .poll(
      async () => {
        await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId, data: payload });
        return page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => [n.title, n.body]));
      },
      { timeout: 15_000 },
    )
    .toContainEqual(['Ada shared Plans with you', 'Open it from Shared with me.']);
});

test('with permission, turning Browser on subscribes this browser; an invite then arrives by web push and the worker shows it', async ({ browser }) => {
  const push = await startPushService();
  try {
    const owner = await person(browser);
    const context = await browser.newContext();
    await context.grantPermissions(['notifications']);
    const page = await context.newPage();
    const member = await registerFreshUser(page);
    await waitForServiceWorker(page);
    const key = (await (await page.request.get('/api/v1/notifications/push/key')).json()).publicKey as string;
    const subscription = await push.subscribe(key);
    // Headless Chromium has no push service of its own (subscribe() hangs): the local push service,
    // which checks VAPID and decrypts, stands in for it, and the browser is handed its subscription.
    await context.addInitScript((sub) => {
      PushManager.prototype.subscribe = async () => ({ toJSON: () => sub }) as unknown as PushSubscription;
      PushManager.prototype.getSubscription = async () => ({ toJSON: () => sub }) as unknown as PushSubscription;
    }, subscription);

    await page.goto('/notifications/settings');
    const groupBrowser = page.getByRole('checkbox', { name: 'Notify me when… Browser' });
    await groupBrowser.click();
    await expect(groupBrowser).not.toBeChecked();
    await groupBrowser.click();
    await expect(groupBrowser).toBeChecked();
    await page.getByRole('button', { name: 'Update Preferences' }).click();
    await expect(page.getByText('Updated preferences')).toBeVisible();

    await invite(owner.page, member.email, 'Push Team');
    await expect.poll(() => push.messages(subscription.endpoint), { timeout: 15_000 }).toHaveLength(1);
    const [message] = await push.messages(subscription.endpoint);
    expect(JSON.parse(message!)).toMatchObject({
      title: expect.stringContaining('invited you to join Push Team'),
      url: expect.stringMatching(/^\/drive\?invite=/),
    });

    // The decrypted payload goes into the real service worker, which shows it.
    const cdp = await context.newCDPSession(page);
    const registrationId = new Promise<string>((resolve) =>
      cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
        const found = registrations.find((r: { isDeleted: boolean }) => !r.isDeleted);
        if (found) resolve(found.registrationId as string);
      }),
    );
    await cdp.send('ServiceWorker.enable');
    const origin = new URL(page.url()).origin;
    const id = await registrationId;
    await expect
      .poll(
        async () => {
          await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId: id, data: message! });
          return page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => n.title));
        },
        { timeout: 15_000 },
      )
      .toContainEqual(expect.stringContaining('invited you to join Push Team'));
    await owner.context.close();
    await context.close();
  } finally {
    await push.close();
  }
});
