/**
 * "Make available offline" on a folder of 1,000 files (100 MB: 999 files of
 * 82 KB in 10 subfolders, and a 20 MB PDF) in the built app, Chromium through
 * Playwright, the service worker's sync engine doing the work. Every byte
 * between browser and server goes through a counting HTTP proxy. Prints:
 *
 * - time to pinned (the click to the pin's "completed"), beside a reference in
 *   the same run: the browser fetching the same 1,000 downloads plainly, 4 at
 *   a time (the engine's parallelism), and the ratio;
 * - bytes fetched (response bytes through the proxy while pinning) vs bytes
 *   stored (the pin's Cache Storage entries): target ≤ 1.01×;
 * - requests per refresh when nothing changed (the Offline files page's
 *   "Check for changes"): target ≤ 3;
 * - the time to open the pinned 20 MB PDF offline (its preview address,
 *   answered by the worker from the device, network cut and proxy refusing),
 *   beside the same fetch online from the server, and the ratio.
 *
 * Asserts nothing; prints the targets as met or not.
 *
 *   npm run build && npm run bench:offline-pin     (-- --json out.json; CHROME_PATH to use another browser)
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { chromium, type Page } from '@playwright/test';
import { buildApp, servicesOf } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { userActor } from '../../server/modules/access/actor.js';
import { ensureFirstAdmin } from '../../server/modules/setup/first-admin.js';
import { conditions, printTargets, writeJson } from './lib/report.js';
import { startServer } from './lib/server.js';

const admin = { email: 'bench@example.com', password: 'bench password' };
const webDist = path.resolve('dist/web');
const FOLDER = 'Travel';
const SUBFOLDERS = 10;
const SMALL_FILES = 999;
const SMALL_BYTES = 83_968;
const PDF_BYTES = 20 * 1024 * 1024;
const PARALLEL = 4;

interface Seeded {
  folder: string;
  files: string[];
  pdf: string;
  totalBytes: number;
}

/** A PDF the server takes as one (header, one stream of padding, trailer) of exactly `size` bytes. */
function pdfBytes(size: number): Buffer {
  const head = Buffer.from(
    '%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n3 0 obj\n<< /Length 0 >>\nstream\n',
  );
  const tail = Buffer.from('\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');
  return Buffer.concat([head, randomBytes(size - head.length - tail.length), tail]);
}

/** The folder, made the way uploads make files (bytes on the disk, sha256 kept), in-process before the server starts. */
async function seed(dataDir: string): Promise<Seeded> {
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', WEB_DIST_DIR: path.join(dataDir, 'none') });
  const app = await buildApp({ config, logger: false });
  try {
    await ensureFirstAdmin(servicesOf(app).db.kysely, admin);
    const row = await servicesOf(app).db.kysely.selectFrom('users').selectAll().where('email', '=', admin.email).executeTakeFirstOrThrow();
    const actor = userActor(row.id, (await servicesOf(app).users.withAccess(row)).permissions);
    const { drive } = servicesOf(app);
    const scope = await drive.scope(actor, null);
    const folder = (await drive.entries.createFolder(actor, scope, { name: FOLDER })).hash;
    const subfolders: string[] = [];
    for (let i = 0; i < SUBFOLDERS; i += 1) subfolders.push((await drive.entries.createFolder(actor, scope, { name: `Day ${i + 1}`, parentId: folder })).hash);
    const files: string[] = [];
    let totalBytes = 0;
    const put = async (name: string, parentId: string, content: Buffer) => {
      const entry = await drive.files.createFileFromStream(actor, scope, { parentId, name, stream: Readable.from([content]), size: content.length });
      files.push(entry.hash);
      totalBytes += content.length;
      return entry.hash;
    };
    for (let i = 0; i < SMALL_FILES; i += 1) await put(`photo-${i}.bin`, subfolders[i % SUBFOLDERS]!, randomBytes(SMALL_BYTES));
    const pdf = await put('guide.pdf', folder, pdfBytes(PDF_BYTES));
    return { folder, files, pdf, totalBytes };
  } finally {
    await app.close();
  }
}

interface Logged {
  method: string;
  path: string;
  status: number;
  bytes: number;
}

/** An HTTP proxy that logs every request and the response bytes it passed back; `refuse` cuts it off like a network gone. */
async function countingProxy(target: string) {
  const upstream = new URL(target);
  const log: Logged[] = [];
  let refusing = false;
  const server = http.createServer((req, res) => {
    if (refusing) {
      req.socket.destroy();
      return;
    }
    const forward = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      const entry: Logged = { method: req.method ?? 'GET', path: (req.url ?? '').split('?')[0]!, status: answer.statusCode ?? 0, bytes: 0 };
      log.push(entry);
      answer.on('data', (chunk: Buffer) => (entry.bytes += chunk.length));
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    log,
    refuse: (on: boolean) => {
      refusing = on;
      if (on) server.closeAllConnections();
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type PinRecord = { status: string; syncedAt: number | null; bytesStored: number; filesStored: number; error: string | null };

/** The pin as the user's database holds it (the page's Dexie store, read with plain IndexedDB). */
function readPin(page: Page, userId: string, entryId: string): Promise<PinRecord | null> {
  return page.evaluate(
    ({ userId, entryId }) =>
      new Promise<PinRecord | null>((resolve, reject) => {
        const open = indexedDB.open(`drive-user-${userId}`);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('pins')) {
            db.close();
            resolve(null);
            return;
          }
          const get = db.transaction('pins').objectStore('pins').get(entryId);
          get.onsuccess = () => {
            db.close();
            resolve((get.result as PinRecord | undefined) ?? null);
          };
          get.onerror = () => reject(get.error);
        };
      }),
    { userId, entryId },
  );
}

async function waitForPin(page: Page, userId: string, entryId: string, done: (pin: PinRecord) => boolean, timeoutMs = 600_000): Promise<PinRecord> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const pin = await readPin(page, userId, entryId);
    if (pin && done(pin)) return pin;
    if (pin?.status === 'failed') throw new Error(`the pin failed: ${pin.error}`);
    if (Date.now() > until) throw new Error(`the pin did not finish: ${JSON.stringify(pin)}`);
    await page.waitForTimeout(100);
  }
}

/** Bytes the user's offline cache holds: file versions (and thumbnails, none here). */
function storedBytes(page: Page, userId: string): Promise<{ entries: number; bytes: number }> {
  return page.evaluate(async (userId) => {
    const cache = await caches.open(`drive-offline-files-${userId}`);
    let bytes = 0;
    const keys = await cache.keys();
    for (const key of keys) bytes += (await (await cache.match(key))!.blob()).size;
    return { entries: keys.length, bytes };
  }, userId);
}

/** The browser fetching these addresses itself, `parallel` at a time, reading every body: the reference. */
function fetchPlainly(page: Page, urls: string[], parallel: number): Promise<{ ms: number; bytes: number }> {
  return page.evaluate(
    async ({ urls, parallel }) => {
      const queue = [...urls];
      let bytes = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: parallel }, async () => {
          for (let url = queue.shift(); url; url = queue.shift()) {
            const response = await fetch(url, { cache: 'no-store', credentials: 'include' });
            // Read before adding: `bytes += await …` would read `bytes` before the await and lose the others' sums.
            const body = await response.arrayBuffer();
            bytes += body.byteLength;
          }
        }),
      );
      return { ms: performance.now() - started, bytes };
    },
    { urls, parallel },
  );
}

const sum = (log: Logged[]) => log.reduce((total, entry) => total + entry.bytes, 0);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function main() {
  await fs.access(path.join(webDist, 'index.html')).catch(() => {
    throw new Error('dist/web is missing: run `npm run build` first.');
  });
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'drive-bench-offline-'));
  const seeded = await seed(dataDir);
  const app = await startServer(dataDir, admin, webDist);
  const proxy = await countingProxy(app.url);
  const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium' });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${proxy.origin}/login`);
    await page.getByLabel('Email').fill(admin.email);
    await page.getByLabel('Password').fill(admin.password);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(/\/drive$/);
    await page.waitForFunction(async () => {
      await navigator.serviceWorker.ready;
      return navigator.serviceWorker.controller !== null;
    });
    const userId = await page.evaluate(async () =>
      String(((await (await fetch('/api/v1/bootstrap-data')).json()) as { data: { user: { id: number } } }).data.user.id),
    );

    // Pin the folder from its context menu; the worker's engine does the rest.
    const folderEntry = page.getByRole('option', { name: FOLDER, exact: true });
    await folderEntry.waitFor();
    await page.waitForLoadState('networkidle');
    proxy.log.length = 0;
    const started = performance.now();
    await folderEntry.click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Make available offline' }).click();
    const pinned = await waitForPin(page, userId, seeded.folder, (pin) => pin.status === 'completed');
    const pinMs = performance.now() - started;
    const pinLog = [...proxy.log];
    const fetched = sum(pinLog);
    const stored = await storedBytes(page, userId);

    // Nothing changed: one refresh from the Offline files page.
    await page.goto(`${proxy.origin}/drive/offline`);
    await page.getByRole('heading', { name: 'Offline files' }).waitFor();
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(1000);
    proxy.log.length = 0;
    await page.getByRole('button', { name: 'Check for changes' }).click();
    await waitForPin(page, userId, seeded.folder, (pin) => pin.status === 'completed' && (pin.syncedAt ?? 0) > (pinned.syncedAt ?? 0), 60_000);
    await page.waitForTimeout(1000);
    const refreshLog = [...proxy.log];

    // The reference: the same 1,000 files fetched plainly by the browser, after the pin (no HTTP cache helps either).
    const urls = seeded.files.map((hash) => `/api/v1/file-entries/download?hashes=${hash}`);
    proxy.log.length = 0;
    const plain = await fetchPlainly(page, urls, PARALLEL);
    const plainFetched = sum(proxy.log);

    // The 20 MB PDF: online from the server (reference), then offline from the device.
    const preview = `/api/v1/file-entries/${seeded.pdf}/preview`;
    const online = await fetchPlainly(page, [preview], 1);
    // The folder open in the app while online; then the network goes and the server is unreachable.
    await page.goto(`${proxy.origin}/drive/folders/${seeded.folder}`);
    const pdfEntry = page.getByRole('option', { name: 'guide.pdf', exact: true });
    await pdfEntry.waitFor();
    await context.setOffline(true);
    proxy.refuse(true);
    const offline = await fetchPlainly(page, [preview], 1);
    // As the user opens it: double-click, the preview's frame loads the PDF from the device.
    let shown: { ms: number; status: number; bytes: number; fromServiceWorker: boolean } | string;
    try {
      const opened = performance.now();
      const loaded = page.waitForEvent('requestfinished', { predicate: (request) => request.url().includes(preview), timeout: 60_000 });
      await pdfEntry.dblclick();
      const response = await (await loaded).response();
      // Chromium's PDF viewer takes the frame's body, so Playwright cannot read it: the answer's headers say what came.
      const length = Number((await response?.allHeaders())?.['content-length'] ?? 0);
      shown = { ms: performance.now() - opened, status: response?.status() ?? 0, bytes: length, fromServiceWorker: response?.fromServiceWorker() ?? false };
    } catch (error) {
      shown = `not measured: ${(error as Error).message.split('\n')[0]}`;
    }
    await context.setOffline(false);
    proxy.refuse(false);

    const byPath = (log: Logged[]) => {
      const counts = new Map<string, number>();
      for (const entry of log) {
        const key = `${entry.method} ${entry.path.replace(/\/file-entries\/[^/]+\//, '/file-entries/:id/')} ${entry.status}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      return [...counts].map(([key, count]) => `${count} × ${key}`);
    };

    const ratio = fetched / stored.bytes;
    console.log(
      `\nPinning "${FOLDER}": ${seeded.files.length} files, ${mb(seeded.totalBytes)}, ${SUBFOLDERS} subfolders; Chromium, ${os.cpus().length} CPUs, load average ${conditions().loadAverage.join(' ')}`,
    );
    console.log(`time to pinned                 ${(pinMs / 1000).toFixed(2)} s   (${pinned.filesStored} files, ${mb(pinned.bytesStored)})`);
    console.log(
      `  reference: plain fetches     ${(plain.ms / 1000).toFixed(2)} s   (${PARALLEL} at a time, ${mb(plain.bytes)} read, ${mb(plainFetched)} through the proxy)`,
    );
    console.log(`  ratio pin / plain            ${(pinMs / plain.ms).toFixed(2)}×`);
    console.log(`bytes fetched while pinning    ${fetched} (${pinLog.length} requests)`);
    console.log(`bytes stored on the device     ${stored.bytes} (${stored.entries} cache entries)`);
    console.log(`  fetched / stored             ${ratio.toFixed(4)}×`);
    console.log(`requests per refresh, nothing changed: ${refreshLog.length}   (${byPath(refreshLog).join(', ') || 'none'})`);
    console.log(`open the 20 MB PDF offline     ${offline.ms.toFixed(0)} ms (${mb(offline.bytes)} from the device)`);
    console.log(
      `  opened in the app (double-click to the preview frame's PDF loaded): ${typeof shown === 'string' ? shown : `${shown.ms.toFixed(0)} ms, HTTP ${shown.status}, Content-Length ${mb(shown.bytes)}${shown.fromServiceWorker ? ', from the worker' : ''}`}`,
    );
    console.log(`  reference: online            ${online.ms.toFixed(0)} ms (${mb(online.bytes)} from the server)`);
    console.log(`  ratio offline / online       ${(offline.ms / online.ms).toFixed(2)}×`);
    console.log(`requests while pinning: ${byPath(pinLog).join(', ')}`);

    printTargets([
      { target: 'bytes fetched ≤ 1.01× bytes stored', measured: `${ratio.toFixed(4)}×`, met: ratio <= 1.01 },
      { target: 'requests per refresh when nothing changed ≤ 3', measured: String(refreshLog.length), met: refreshLog.length <= 3 },
      { target: 'every pinned byte on the device', measured: `${stored.bytes} of ${seeded.totalBytes}`, met: stored.bytes === seeded.totalBytes },
      { target: 'the PDF opens offline, whole', measured: `${offline.bytes} of ${PDF_BYTES} bytes`, met: offline.bytes === PDF_BYTES },
    ]);
    await writeJson('offline-pin', [
      {
        files: seeded.files.length,
        bytes: seeded.totalBytes,
        pinMs,
        plainMs: plain.ms,
        fetched,
        stored: stored.bytes,
        pinRequests: pinLog.length,
        refreshRequests: refreshLog.length,
        pdfOfflineMs: offline.ms,
        pdfOpenedInAppMs: typeof shown === 'string' ? null : shown.ms,
        pdfOnlineMs: online.ms,
      },
    ]);
    await context.close();
  } finally {
    await browser.close();
    await proxy.stop();
    await app.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

await main();
