/**
 * Lighthouse (mobile simulation, the installed package driving /usr/bin/chromium)
 * on /login, /pricing and a signed-in /drive of the built app, served by the app's
 * own process. Prints the four category scores and the gzip size of the JS
 * /login loads up front. Asserts nothing.
 *
 *   npm run build && npm run bench:lighthouse      (-- --json out.json; CHROME_PATH to use another browser)
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { conditions, printTargets, writeJson } from './lib/report.js';
import { signIn, startServer } from './lib/server.js';

const admin = { email: 'bench@example.com', password: 'bench password' };
const webDist = path.resolve('dist/web');
const categories = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
/** Issue 38.1: 95 for the public pages (written by the server), 90 for the signed-in drive. */
const performanceTarget = (page: string) => (page === '/drive' ? 90 : 95);

/**
 * The JS /login loads before it is hydrated, gzip-compressed as it would travel: the scripts its HTML names (the
 * entry, src/boot.ts, and the screen's preloads, which boot fetches after the first paint) and the app's own chunk
 * (src/main.tsx, which boot imports) with every chunk it imports.
 */
async function initialJs(html: string): Promise<number> {
  const sources = new Set([...html.matchAll(/<(?:script[^>]+src|link[^>]+rel="modulepreload"[^>]+href)="\/([^"]+\.js)"/g)].map((m) => m[1]!));
  const manifest = JSON.parse(await fs.readFile(path.join(webDist, '.vite/manifest.json'), 'utf8')) as Record<string, { file: string; imports?: string[] }>;
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || sources.has(chunk.file)) return;
    sources.add(chunk.file);
    chunk.imports?.forEach(visit);
  };
  visit('src/main.tsx');
  let total = 0;
  for (const source of sources) total += gzipSync(await fs.readFile(path.join(webDist, source))).length;
  return total;
}

/**
 * Signs the browser in: the session in its cookie jar, as a visitor who signed in has it. A Cookie header through
 * Lighthouse's extraHeaders reaches the page's request but not the app's fetch() calls, which answered 401 and sent
 * the app to /login (the /drive figures before this measured the sign-in page the drive redirected to).
 */
async function signInBrowser(port: number, url: string, cookieHeader: string): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const cookies = cookieHeader.split(/;\s*/).map((pair) => {
      const at = pair.indexOf('=');
      return { name: pair.slice(0, at), value: pair.slice(at + 1), url };
    });
    await browser.contexts()[0]!.addCookies(cookies);
  } finally {
    // Connected over CDP: this disconnects, the browser and its default context stay.
    await browser.close();
  }
}

interface TraceEvent {
  name: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { data?: { isLoadingMainFrame?: boolean } };
}

/**
 * Blocking time as Lighthouse counts it (each main-thread task after the first paint, 4x for the slowed CPU,
 * less 50 ms), from each task's thread CPU time rather than its wall time. Lantern uses wall time, which
 * on a loaded machine holds the time other processes had the core (at load 14 a 14 ms task took 61 ms):
 * this figure says what an idle machine would count, and the tasks that would still be long.
 */
function blockingByCpu(events: TraceEvent[]): { ms: number; tasks: { atMs: number; cpuMs: number; wallMs: number }[] } {
  const navigation = events.find((e) => e.name === 'navigationStart' && e.args?.data?.isLoadingMainFrame);
  const paint = events.find((e) => e.name === 'firstContentfulPaint');
  if (!navigation || !paint) return { ms: 0, tasks: [] };
  let ms = 0;
  const tasks = [];
  for (const task of events) {
    if (task.name !== 'RunTask' || task.pid !== paint.pid || task.tid !== paint.tid || task.ts < paint.ts || !task.dur) continue;
    const cpuMs = (task.tdur ?? task.dur) / 1000;
    if (4 * cpuMs <= 50) continue;
    ms += 4 * cpuMs - 50;
    tasks.push({ atMs: (task.ts - navigation.ts) / 1000, cpuMs, wallMs: task.dur / 1000 });
  }
  return { ms, tasks };
}

async function main() {
  await fs.access(path.join(webDist, 'index.html')).catch(() => {
    throw new Error('dist/web is missing: run `npm run build` first.');
  });
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'drive-bench-lighthouse-'));
  const app = await startServer(dataDir, admin, webDist);
  const headers = await signIn(app.url, admin);
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'],
  });
  const rows: {
    page: string;
    scores: Record<string, number>;
    lcpMs: number | null;
    fcpMs: number | null;
    tbtMs: number | null;
    tbtCpuMs: number;
    clsScore: number | null;
  }[] = [];
  try {
    for (const [page, signedIn] of [
      ['/login', false],
      ['/pricing', false],
      ['/drive', true],
    ] as const) {
      // Last, once the guest pages are done: the jar's session would send a signed-in visitor on from /login.
      if (signedIn) await signInBrowser(chrome.port, app.url, headers.cookie!);
      // One request first, as a running server has served many: the first render of a page after start compiles the
      // renderer (~0.8 s against ~0.07 s after, at load 10), which Lighthouse would count into the page's first byte.
      await fetch(`${app.url}${page}`, { headers: signedIn ? { cookie: headers.cookie! } : {} }).then((r) => r.text());
      const result = await lighthouse(`${app.url}${page}`, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: [...categories],
      });
      const lhr = result!.lhr;
      // A page that sent the browser elsewhere (a guard's redirect) was not the page measured.
      const landed = new URL(lhr.finalDisplayedUrl).pathname;
      if (landed !== page) console.log(`${page} ENDED AT ${landed}: these figures are not ${page}'s`);
      const trace = (result!.artifacts as { Trace?: { traceEvents: TraceEvent[] } }).Trace;
      const cpu = blockingByCpu(trace?.traceEvents ?? []);
      console.log(
        `${page} blocking time by thread CPU: ${Math.round(cpu.ms)} ms; tasks over 12.5 ms of CPU (at: CPU/wall ms): ${cpu.tasks.map((t) => `${Math.round(t.atMs)}: ${Math.round(t.cpuMs)}/${Math.round(t.wallMs)}`).join(', ') || 'none'}`,
      );
      const scores = Object.fromEntries(categories.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)]));
      rows.push({
        page,
        scores,
        lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? null,
        clsScore: lhr.audits['cumulative-layout-shift']?.numericValue ?? null,
        fcpMs: lhr.audits['first-contentful-paint']?.numericValue ?? null,
        tbtMs: lhr.audits['total-blocking-time']?.numericValue ?? null,
        tbtCpuMs: cpu.ms,
      });
      // Which element the LCP is, and when its parts happened (the page's first byte, the resource, the render's wait).
      const lcpElement =
        (
          lhr.audits['largest-contentful-paint-element']?.details as
            { items?: { items?: { node?: { snippet?: string }; phase?: string; timing?: number }[] }[] } | undefined
        )?.items ?? [];
      for (const table of lcpElement) {
        for (const item of table.items ?? []) {
          if (item.node?.snippet) console.log(`${page} LCP element: ${item.node.snippet.slice(0, 160)}`);
          else if (item.phase) console.log(`${page} LCP ${item.phase}: ${Math.round(item.timing ?? 0)} ms`);
        }
      }
      // Where the main thread went (what TBT and a late LCP are made of): the scripts that cost most.
      const bootup =
        (lhr.audits['bootup-time']?.details as { items?: { url: string; scripting: number; scriptParseCompile: number }[] } | undefined)?.items ?? [];
      for (const item of bootup.slice(0, 5)) {
        console.log(
          `${page} main thread: ${item.url.replace(app.url, '')} scripting ${Math.round(item.scripting)} ms, parse ${Math.round(item.scriptParseCompile)} ms`,
        );
      }
      const tasks = (lhr.audits['long-tasks']?.details as { items?: { url: string; duration: number; startTime: number }[] } | undefined)?.items ?? [];
      for (const task of tasks.slice(0, 6))
        console.log(`${page} long task: ${Math.round(task.duration)} ms at ${Math.round(task.startTime)} ms, ${task.url.replace(app.url, '')}`);
      // What cost points outside performance: those categories are to stay where they were.
      for (const category of categories.slice(1)) {
        for (const ref of lhr.categories[category]?.auditRefs ?? []) {
          const audit = lhr.audits[ref.id];
          if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1)
            console.log(`${page} ${category}: ${audit.id} — ${audit.title}`, JSON.stringify(audit.details ?? {}).slice(0, 400));
        }
      }
    }
    const loginHtml = await (await fetch(`${app.url}/login`)).text();
    const js = await initialJs(loginHtml);
    console.log(`\nLighthouse ${'mobile'} on ${os.cpus().length} CPUs, load average ${conditions().loadAverage.join(' ')}`);
    console.log(
      'page'.padEnd(10),
      ...categories.map((c) => c.padStart(15)),
      'FCP ms'.padStart(8),
      'LCP ms'.padStart(8),
      'TBT ms'.padStart(8),
      'CLS'.padStart(6),
      'TBT by CPU'.padStart(11),
    );
    const ms = (value: number | null) => String(Math.round(value ?? 0)).padStart(8);
    for (const row of rows) {
      console.log(
        row.page.padEnd(10),
        ...categories.map((c) => String(row.scores[c]).padStart(15)),
        ms(row.fcpMs),
        ms(row.lcpMs),
        ms(row.tbtMs),
        (row.clsScore ?? 0).toFixed(3).padStart(6),
        ms(row.tbtCpuMs).padStart(11),
      );
    }
    console.log(`initial JS for /login: ${(js / 1024).toFixed(0)} KB gzip`);
    printTargets([
      ...rows.map((row) => ({
        target: `${row.page}: performance ≥ ${performanceTarget(row.page)}, CLS 0`,
        measured: `${row.scores.performance} (FCP ${Math.round(row.fcpMs ?? 0)} ms, LCP ${Math.round(row.lcpMs ?? 0)} ms, TBT ${Math.round(row.tbtMs ?? 0)} ms (${Math.round(row.tbtCpuMs)} ms by thread CPU), CLS ${(row.clsScore ?? 0).toFixed(3)})`,
        met: (row.scores.performance ?? 0) >= performanceTarget(row.page) && (row.clsScore ?? 0) === 0,
        why:
          "The public pages are written by the server and /drive paints the server's preview; the app's script starts after that paint\n" +
          '(src/boot.ts), so FCP and LCP are the HTML and CSS alone (the LCP element and its phases are listed above). What is left is TBT:\n' +
          "react's and the app's module evaluation and /drive's commit of its first render, the tasks listed above. Lantern times tasks by\n" +
          'wall clock, which on a loaded machine holds other processes: judge by the blocking time by thread CPU, what an idle machine\n' +
          "counts. What would meet it there: the drive's first render committed in parts (its commit is one task of ~50 ms CPU).",
      })),
      ...rows.map((row) => ({
        target: `${row.page}: accessibility, best practices, SEO ≥ 100 / 100 / 91`,
        measured: `${row.scores.accessibility} / ${row.scores['best-practices']} / ${row.scores.seo}`,
        met: (row.scores.accessibility ?? 0) >= 100 && (row.scores['best-practices'] ?? 0) >= 100 && (row.scores.seo ?? 0) >= 91,
        why: 'see the audits listed above the table.',
      })),
      { target: 'initial JS for /login ≤ 200 KB gzip', measured: `${(js / 1024).toFixed(0)} KB`, met: js <= 200 * 1024 },
    ]);
    await writeJson('lighthouse', [...rows, { page: '/login', initialJsGzipBytes: js }]);
  } finally {
    await chrome.kill();
    await app.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
