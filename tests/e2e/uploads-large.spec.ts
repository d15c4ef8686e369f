import { expect, test } from '@playwright/test';
import { CountingProxy } from './counting-proxy';
import { E2E_PORT } from './env';
import { currentUserId, downloadedSha256, enqueueLarge, expectedSha256, kick, MB, ready, storedItem } from './upload-helpers';

// Large files through the worker's tus queue, end to end against the real
// server. The page hands the item over exactly as the page client does
// (IndexedDB, then a message to the worker); see upload-helpers.ts.

test('a 50 MB file goes through tus in 5 MB chunks and downloads with the same sha256', async ({ page }) => {
  test.setTimeout(60_000);
  await ready(page);
  // Every progress write the worker announces, to see the upload go chunk by chunk.
  await page.evaluate(() => {
    const seen: number[] = [];
    (window as unknown as { e2eProgress: number[] }).e2eProgress = seen;
    new BroadcastChannel('uploads').onmessage = (event: MessageEvent<{ type: string; item?: { bytesUploaded: number } }>) => {
      if (event.data.type === 'item' && event.data.item) seen.push(event.data.item.bytesUploaded);
    };
  });
  const spec = { name: 'fifty.bin', size: 50 * MB, chunkSize: 5 * MB, seed: 0x5eed50 };
  const item = await enqueueLarge(page, spec);

  await expect.poll(async () => (await storedItem(page, item.id))?.status, { timeout: 40_000 }).toBe('completed');
  const progress = await page.evaluate(() => (window as unknown as { e2eProgress: number[] }).e2eProgress);
  // The server confirmed the bytes one chunk at a time: 5 MB, 10 MB, … 50 MB.
  const chunkEnds = Array.from({ length: 10 }, (_, i) => (i + 1) * 5 * MB);
  expect(progress).toEqual(expect.arrayContaining(chunkEnds));
  expect(progress.every((bytes) => bytes % (5 * MB) === 0)).toBe(true);

  expect(await downloadedSha256(page, spec.name)).toBe(expectedSha256(spec));
});

const proxied = test.extend<{ countingProxy: CountingProxy }>({
  // eslint-disable-next-line no-empty-pattern
  countingProxy: async ({}, use) => {
    const proxy = await CountingProxy.start({ host: '127.0.0.1', port: E2E_PORT });
    await use(proxy);
    await proxy.stop();
  },
  // The whole test (pages, worker, page.request) talks to the server through the proxy.
  baseURL: async ({ countingProxy }, use) => {
    await use(countingProxy.origin);
  },
});

proxied('an upload cut off mid-chunk resumes where the server stopped, without sending the file again', async ({ page, context, countingProxy: proxy }) => {
  proxied.setTimeout(60_000);
  await ready(page);
  const userId = await currentUserId(page);
  const chunk = 5 * MB;
  const spec = { name: 'resumed.bin', size: 35 * MB, chunkSize: chunk, seed: 0xc0ffee };
  // Every tus URL the worker records for the item: resuming keeps the first one.
  await page.evaluate(() => {
    const urls: string[] = [];
    (window as unknown as { e2eTusUrls: string[] }).e2eTusUrls = urls;
    new BroadcastChannel('uploads').onmessage = (event: MessageEvent<{ type: string; item?: { tusUrl: string | null } }>) => {
      const url = event.data.item?.tusUrl;
      if (url && !urls.includes(url)) urls.push(url);
    };
  });

  // Two chunks go through, then the third stalls half-way at the proxy: it is
  // in flight when the network goes.
  proxy.holdAfter(2 * chunk + chunk / 2);
  const item = await enqueueLarge(page, spec);
  await expect.poll(() => proxy.holding, { timeout: 20_000 }).toBe(true);
  await expect.poll(async () => (await storedItem(page, item.id))?.bytesUploaded, { timeout: 10_000 }).toBe(2 * chunk);

  // The network goes. setOffline alone does not do it for the worker in
  // Chromium: it sets navigator.onLine to false there, but the worker's
  // in-flight fetch carries on, and Chromium even re-sends a reset request on
  // another open connection. So the proxy cuts the connections and refuses
  // new ones, while setOffline tells the worker it is offline (as a real
  // drop would), so the item waits for the network instead of failing.
  await context.setOffline(true);
  proxy.cut();
  await expect
    .poll(
      async () => {
        const stored = await storedItem(page, item.id);
        return { status: stored?.status, waitingForNetwork: stored?.waitingForNetwork, confirmed: stored?.bytesUploaded };
      },
      { timeout: 15_000 },
    )
    .toEqual({ status: 'pending', waitingForNetwork: true, confirmed: 2 * chunk });

  // The network returns; the page client says so (as on its `online` event).
  proxy.restore();
  await context.setOffline(false);
  await kick(page, userId);
  await expect.poll(async () => (await storedItem(page, item.id))?.status, { timeout: 30_000 }).toBe('completed');
  const sent = proxy.clientToServer;
  proxied.info().annotations.push({ type: 'client→server bytes', description: `${sent} (${(sent / spec.size).toFixed(4)}× the file)` });

  expect(await page.evaluate(() => (window as unknown as { e2eTusUrls: string[] }).e2eTusUrls)).toHaveLength(1);
  expect(await downloadedSha256(page, spec.name)).toBe(expectedSha256(spec));
  // Everything the browser sent through the proxy in the whole test: the file
  // at most 1.1 times (the part of the cut chunk the server did not keep is
  // sent again) plus 2 MB for all the rest — sign-up, bootstrap and listing
  // calls, the request headers of the tus POST/HEAD/PATCHes — which is a few
  // tens of kB. Sending the file again from the start would add 35 MB.
  expect(sent).toBeLessThanOrEqual(1.1 * spec.size + 2 * MB);
});
