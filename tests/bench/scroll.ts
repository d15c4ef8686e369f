/**
 * Scrolling a folder of 10k entries in the built app (Chromium through
 * Playwright, /usr/bin/chromium), from the top to the last entry, while the
 * listing pages in by cursor. Counts the main thread's long tasks (over 50 ms)
 * while scrolling, beside a reference in the same run: a plain page holding
 * 10k rows of the same height, scrolled the same way. Prints both, once at
 * full CPU and once at 4x slowdown (a mid-range phone). Asserts nothing.
 *
 *   npm run build && npm run bench:scroll      (BENCH_ENTRIES=10000; -- --json out.json; CHROME_PATH to use another browser)
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { conditions, printTargets, writeJson } from './lib/report.js';
import { seedDrive } from './lib/seed.js';
import { startServer } from './lib/server.js';

const entries = Number(process.env.BENCH_ENTRIES ?? 10_000);
const admin = { email: 'bench@example.com', password: 'bench password' };
const webDist = path.resolve('dist/web');
const STEP = 600;

interface Scroll {
  longTasks: number;
  longestMs: number;
  rowsSeen: number;
  seconds: number;
}

/** Records long tasks from the start of the page (buffered), into window.__longTasks. */
const observeLongTasks = () => {
  const w = window as unknown as { __longTasks: number[] };
  w.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) w.__longTasks.push(entry.duration);
  }).observe({ type: 'longtask', buffered: true });
};

/** Scrolls `selector` down by STEP a frame at a time until its end stays put, counting long tasks from the first step. */
async function scrollToEnd(page: Page, selector: string, lastRow: () => Promise<boolean>): Promise<Scroll> {
  await page.evaluate(() => ((window as unknown as { __longTasks: number[] }).__longTasks = []));
  const started = performance.now();
  let still = 0;
  for (let i = 0; i < 20_000 && still < 40; i += 1) {
    const moved = await page.evaluate(
      ({ selector, step }) =>
        new Promise<boolean>((resolve) => {
          const el = document.querySelector(selector)!;
          const before = el.scrollTop;
          el.scrollTop = before + step;
          requestAnimationFrame(() => resolve(el.scrollTop !== before));
        }),
      { selector, step: STEP },
    );
    if (moved) still = 0;
    else {
      still += 1;
      if (await lastRow()) break;
      // At the end of what is loaded: the next page is on its way.
      await page.waitForTimeout(25);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const tasks = await page.evaluate(() => (window as unknown as { __longTasks: number[] }).__longTasks);
  const rowsSeen = await page.evaluate((selector) => document.querySelector(selector)!.scrollHeight, selector);
  return { longTasks: tasks.filter((d) => d > 50).length, longestMs: Math.max(0, ...tasks), rowsSeen, seconds };
}

async function main() {
  await fs.access(path.join(webDist, 'index.html')).catch(() => {
    throw new Error('dist/web is missing: run `npm run build` first.');
  });
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'drive-bench-scroll-'));
  await seedDrive(dataDir, admin, entries + 1, entries);
  const app = await startServer(dataDir, admin, webDist);
  const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium' });
  const rows: { page: string; cpuSlowdown: number; scroll: Scroll }[] = [];
  try {
    for (const slowdown of [1, 4]) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      await context.addInitScript(observeLongTasks);
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await page.goto(`${app.url}/login`);
      await page.getByLabel('Email').fill(admin.email);
      await page.getByLabel('Password').fill(admin.password);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL(/\/drive$/);
      await page.goto(`${app.url}/drive/folders/bigfolder`);
      const listbox = page.getByRole('listbox', { name: /Big folder/i });
      await listbox.getByRole('option').first().waitFor();
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown });
      // The oldest entry is the folder's last under the default sort (updated, newest first).
      const last = `pdf ${entries - 1}.pdf`;
      const app1 = await scrollToEnd(page, '[role="listbox"]', async () => (await page.getByRole('option', { name: new RegExp(`${last}$`) }).count()) > 0);
      rows.push({ page: 'drive folder', cpuSlowdown: slowdown, scroll: app1 });

      // The reference: the same number of plain rows of the listing's height, nothing else on the page.
      const height = await page.evaluate(() => document.querySelector('[role="option"]')!.getBoundingClientRect().height);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      await page.setContent(
        `<div id="plain" style="height:800px;overflow:auto">${Array.from({ length: entries }, (_, i) => `<div style="height:${height}px">plain row ${i}</div>`).join('')}</div>`,
      );
      await page.evaluate(observeLongTasks);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown });
      const plain = await scrollToEnd(page, '#plain', async () => true);
      rows.push({ page: 'plain rows', cpuSlowdown: slowdown, scroll: plain });
      await context.close();
    }
  } finally {
    await browser.close();
    await app.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }

  console.log(`\n${entries} entries, Chromium, ${os.cpus().length} CPUs, load average ${conditions().loadAverage.join(' ')}`);
  console.log('page'.padEnd(14), 'CPU'.padStart(4), 'long tasks'.padStart(11), 'longest ms'.padStart(11), 'seconds'.padStart(8));
  for (const row of rows) {
    console.log(
      row.page.padEnd(14),
      `${row.cpuSlowdown}x`.padStart(4),
      String(row.scroll.longTasks).padStart(11),
      row.scroll.longestMs.toFixed(0).padStart(11),
      row.scroll.seconds.toFixed(1).padStart(8),
    );
  }
  const full = rows.find((r) => r.page === 'drive folder' && r.cpuSlowdown === 1)!;
  const slow = rows.find((r) => r.page === 'drive folder' && r.cpuSlowdown === 4)!;
  printTargets([
    {
      target: `a folder of ${entries} entries scrolls without long tasks over 50 ms`,
      measured: `${full.scroll.longTasks} long task(s), longest ${full.scroll.longestMs.toFixed(0)} ms (at 4x slowdown: ${slow.scroll.longTasks}, longest ${slow.scroll.longestMs.toFixed(0)} ms)`,
      met: full.scroll.longTasks === 0,
      why: 'each page of 50 that arrives re-renders the virtualised list; see the longest task above.',
    },
  ]);
  await writeJson(
    'scroll',
    rows.map((r) => ({ page: r.page, cpuSlowdown: r.cpuSlowdown, ...r.scroll })),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
