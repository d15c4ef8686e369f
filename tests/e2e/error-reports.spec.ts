import { expect, test } from '@playwright/test';
import { startSentryReceiver, type SentryEvent, type SentryReceiver } from '../peers/sentry-receiver';
import { login, waitForServiceWorker } from './helpers';
import { setSetting } from './settings';

/**
 * Issue 33: an error in the page and one in the service worker reach a
 * Sentry-compatible receiver through the browser SDK's own transport (via the
 * site's tunnel), with the release, the user's id and nothing else about them.
 */
test.describe('error reports from the browser', () => {
  let receiver: SentryReceiver;
  test.beforeAll(async () => {
    receiver = await startSentryReceiver();
    await setSetting('observability.sentry_dsn', receiver.dsn);
  });
  test.afterAll(async () => {
    await setSetting('observability.sentry_dsn', '');
    await receiver.close();
  });

  const SECRETS = ['alice.secret@example.com', 'Quarterly report.xlsx', 'Zx81kQp2LmN0aB7c'];
  const expectScrubbed = (event: SentryEvent) => {
    const raw = JSON.stringify(event);
    for (const secret of SECRETS) expect(raw).not.toContain(secret);
    expect(raw).not.toContain('drive_session');
  };

  test('a page error, with the user id and breadcrumbs, scrubbed', async ({ page }) => {
    await login(page);
    const sdkLoaded = page.waitForResponse((response) => /sentry-setup-[\w-]+\.js$/.test(response.url()));
    await page.goto('/drive');
    await sdkLoaded;
    // What led there: a console line and a request, as breadcrumbs.
    await page.waitForFunction(() => (window as { __SENTRY__?: unknown }).__SENTRY__ !== undefined);
    await page.evaluate(async () => {
      console.warn('opening the drive');
      await fetch('/api/v1/health?probe=Zx81kQp2LmN0aB7c');
    });
    await page.evaluate(() => {
      setTimeout(() => {
        throw new Error('page failed for alice.secret@example.com on "Quarterly report.xlsx" via Zx81kQp2LmN0aB7c');
      });
    });
    const event = await receiver.waitForEvent((e) => e.tags?.side === 'app' && /page failed/.test(e.exception?.values?.[0]?.value ?? ''));
    expect(event.exception?.values?.[0]?.value).toBe('page failed for [email] on "Quarterly [file]" via [id]');
    expect(event.user).toEqual({ id: expect.any(String) });
    expect(event.release).toMatch(/^drive@/);
    expect(event.sdk?.name).toBe('sentry.javascript.browser');
    const crumbs = Array.isArray(event.breadcrumbs) ? event.breadcrumbs : (event.breadcrumbs?.values ?? []);
    expect(crumbs).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ category: 'console', message: 'opening the drive' }),
        expect.objectContaining({ category: 'fetch', data: expect.objectContaining({ url: '/api/v1/health' }) }),
      ]),
    );
    expectScrubbed(event);
  });

  test('a service worker error, scrubbed', async ({ page }) => {
    await page.goto('/');
    await waitForServiceWorker(page);
    const worker = page.context().serviceWorkers()[0]!;
    await worker.evaluate(() => {
      setTimeout(() => {
        throw new Error('worker failed for alice.secret@example.com with Zx81kQp2LmN0aB7c');
      });
    });
    const event = await receiver.waitForEvent((e) => e.tags?.side === 'worker' && /worker failed/.test(e.exception?.values?.[0]?.value ?? ''));
    expect(event.exception?.values?.[0]?.value).toBe('worker failed for [email] with [id]');
    expect(event.release).toMatch(/^drive@/);
    expectScrubbed(event);
  });
});
