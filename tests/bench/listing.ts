/**
 * Listing pages, name and content search on a big drive (100k entries, one folder of
 * 10k) under 64 connections, beside a bare Fastify route answering the same
 * bytes, in the same run. Prints req/s, p50, p97.5, p99, the server's CPU ms a response and the ratio, then
 * where one request's time goes (in-process), then issue 19's targets as met
 * or not, with the measured reason for a miss. Asserts nothing.
 *
 *   npm run bench:listing      (BENCH_ENTRIES=100000, BENCH_SECONDS=5; -- --json out.json; DATABASE_URL for PostgreSQL)
 *   BENCH_ENTRIES=1000000 BENCH_ONLY=search npm run bench:listing     the 1M-entry search target (16 connections)
 *   BENCH_DATA_DIR=dir   seed into dir once and reuse that drive in later runs (with the same DATABASE_URL)
 *   With DATABASE_URL, the folder and root pages run again with WORKERS=2 (Redis at BENCH_REDIS_URL, default the local one).
 *
 * The revalidation row sends the listing's own ETag back as If-None-Match and expects 304s.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Fastify from 'fastify';
import { seedDrive } from './lib/seed.js';
import { signIn, startServer } from './lib/server.js';
import { breakdown, describeBreakdown, describeHookCosts, hookCosts, inProcessApp, restMs, type Breakdown } from './lib/breakdown.js';
import { budgetMs, conditions, printTargets, writeJson, type Target } from './lib/report.js';
import { treeCpuMs } from './lib/cpu.js';
import type { LoadResult } from './lib/load-client.js';

const total = Number(process.env.BENCH_ENTRIES ?? 100_000);
const bigFolder = Math.min(10_000, total);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = 64;
const admin = { email: 'bench@example.com', password: 'bench password' };
const run = promisify(execFile);

interface Load {
  rps: number;
  p50: number;
  /** From every response's time, recorded by lib/load-client.ts (autocannon's own summary has no p95). */
  p95: number;
  p975: number;
  p99: number;
  /** CPU time (user + system) of the answering process a response: steadier than req/s on a machine shared with other work. */
  cpuMs: number;
}

/** CPU milliseconds a process has used so far (Linux /proc: utime + stime, in clock ticks of 10 ms). */
async function processCpuMs(pid: number): Promise<number> {
  const fields = (await fs.readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** `cpuOf`: the answering side's CPU ms so far (one process, or a primary and its workers). */
async function load(
  url: string,
  headers: Record<string, string>,
  cpuOf: () => Promise<number>,
  { notModified = false, clients = connections } = {},
): Promise<Load> {
  const options = JSON.stringify({ url, connections: clients, seconds, headers });
  const before = await cpuOf();
  const { stdout } = await run(process.execPath, ['--import', 'tsx', path.resolve('tests/bench/lib/load-client.ts'), options], { maxBuffer: 16 * 1024 * 1024 });
  const cpuMs = (await cpuOf()) - before;
  const r = JSON.parse(stdout) as LoadResult;
  const unexpected = notModified ? r.statusCodes.some((code) => code !== '304') : r.non2xx > 0;
  if (unexpected || r.errors) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { rps: r.rps, p50: r.p50, p95: r.p95, p975: r.p975, p99: r.p99, cpuMs: cpuMs / Math.max(1, r.responses) };
}

type Call = { label: string; url: string; clients: number; revalidate?: boolean; reference: number };

async function main() {
  const dataDir = await seededDataDir();
  const app = await startServer(dataDir, admin);
  const headers = await signIn(app.url, admin);

  const folderPath = '/api/v1/drive/file-entries?folderId=bigfolder&perPage=50';
  const rootPath = '/api/v1/drive/file-entries?folderId=0&perPage=50';
  const searchPath = '/api/v1/drive/file-entries?query=invoice%2012&perPage=50';
  // A query matching a tenth of the drive: its page is found early in the date-order walk, each name tested there (too many matches to list first).
  const broadPath = '/api/v1/drive/file-entries?query=report&perPage=50';
  // Content search (issue 35): two words inside 1 in 100 files' text, through the full-text index, with snippets.
  const contentPath = '/api/v1/drive/file-entries?query=quarterly%20harbour&content=true&perPage=50';
  const calls: Call[] = [
    { label: 'folder of 10k, first page', url: folderPath, clients: connections, reference: 0 },
    { label: 'root, first page', url: rootPath, clients: connections, reference: 1 },
    { label: 'name search "invoice 12"', url: searchPath, clients: connections, reference: 2 },
    { label: 'name search, 16 connections', url: searchPath, clients: 16, reference: 2 },
    { label: 'name search, broad "report"', url: broadPath, clients: connections, reference: 4 },
    { label: 'content search "quarterly harbour"', url: contentPath, clients: connections, reference: 3 },
    { label: 'folder of 10k, revalidated (304)', url: folderPath, clients: connections, revalidate: true, reference: 0 },
  ];
  const tag = (await fetch(`${app.url}${folderPath}`, { headers })).headers.get('etag');

  const bare = Fastify({ logger: false });
  const bodies: string[] = [];
  for (const url of [folderPath, rootPath, searchPath, contentPath, broadPath]) bodies.push(await (await fetch(`${app.url}${url}`, { headers })).text());
  bodies.forEach((body, i) => bare.get(`/${i}`, (_req, reply) => reply.type('application/json').send(body)));
  const bareUrl = await bare.listen({ host: '127.0.0.1', port: 0 });

  const env = conditions();
  console.log(`\n${total} entries, ${seconds} s each, ${env.database}, ${env.cpus} CPUs, load average ${env.loadAverage.join(' ')}`);
  const rows: (Load & { label: string; clients: number; bareRps: number; bareCpuMs: number; ratio: number })[] = [];
  console.log(
    'call'.padEnd(34),
    'conns'.padStart(5),
    'req/s'.padStart(8),
    'p50 ms'.padStart(8),
    'p95'.padStart(7),
    'p97.5'.padStart(7),
    'p99 ms'.padStart(8),
    'cpu ms'.padStart(7),
    '| bare req/s'.padStart(12),
    'cpu ms'.padStart(7),
    'ratio'.padStart(7),
  );
  const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY, 'i') : null;
  for (const call of calls) {
    if (only && !only.test(call.label)) continue;
    // The bare routes answer in this process (the load client is another one).
    const reference = await load(`${bareUrl}/${call.reference}`, {}, () => processCpuMs(process.pid), { clients: call.clients });
    const cpuOf = () => processCpuMs(app.process.pid!);
    const ours = call.revalidate
      ? await load(`${app.url}${call.url}`, { ...headers, 'if-none-match': tag ?? '' }, cpuOf, { notModified: true, clients: call.clients })
      : await load(`${app.url}${call.url}`, headers, cpuOf, { clients: call.clients });
    const row = { label: call.label, clients: call.clients, ...ours, bareRps: reference.rps, bareCpuMs: reference.cpuMs, ratio: ours.rps / reference.rps };
    rows.push(row);
    console.log(
      ...loadColumns(call.label, call.clients, ours),
      `| ${reference.rps.toFixed(0)}`.padStart(12),
      reference.cpuMs.toFixed(3).padStart(7),
      row.ratio.toFixed(2).padStart(7),
    );
  }
  await bare.close();
  await app.stop();
  const scaled = process.env.DATABASE_URL ? await scaledRows(dataDir, rows, calls) : [];

  // Where a request's time goes, in this process on the same database, for the lines that explain a miss.
  const inProcess = await inProcessApp(dataDir, admin);
  const costs = new Map<string, Breakdown>();
  for (const url of [folderPath, rootPath, searchPath, broadPath, contentPath]) {
    // Only the lines that ran (BENCH_ONLY), and about 2 s each: over 1M a content search takes ~200 ms a request.
    if (only && !calls.some((call) => call.url === url && only.test(call.label))) continue;
    const started = performance.now();
    await breakdown(inProcess, url, 1, 0);
    const rounds = Math.max(20, Math.min(400, Math.round(2000 / (performance.now() - started))));
    costs.set(url, await breakdown(inProcess, url, rounds, Math.ceil(rounds / 4)));
  }
  // Issue 38 §3: each hook of the folder page and its handler, timed alone (the part that is neither SQL nor serialising).
  const hooks = costs.has(folderPath) ? await hookCosts(inProcess, folderPath) : [];
  await inProcess.app.close();
  console.log('\nin-process cost of one request (no sockets, one at a time)');
  for (const [url, cost] of costs) console.log(`  ${url.replace('/api/v1/drive/file-entries?', '')}: ${describeBreakdown(cost)}`);
  if (hooks.length)
    console.log(
      `\nthe folder page's hooks and handler, µs a request (each from its call until it calls back; a garbage collection counts in whichever hook allocates when the young generation is full):\n${describeHookCosts(hooks)}`,
    );

  printTargets([...targetsOf(rows, costs, { folderPath, rootPath, searchPath }), ...scaled]);
  await writeJson('listing', rows);
  if (process.env.BENCH_KEEP || process.env.BENCH_DATA_DIR) console.log(`kept ${dataDir}`);
  else await fs.rm(dataDir, { recursive: true, force: true });
}

/**
 * Issue 38 §3 on PostgreSQL: the folder and root pages again with WORKERS=2
 * (node:cluster, sessions and caches shared through Redis), against the same
 * rows of one process measured just before. CPU counts the primary and both
 * workers. Only a machine with two cores free for the server can show the
 * doubling: the load client and every other process share them.
 */
async function scaledRows(dataDir: string, rows: (Load & { label: string })[], calls: Call[]): Promise<Target[]> {
  const workers = 2;
  const server = await startServer(dataDir, admin, undefined, {
    WORKERS: String(workers),
    REDIS_URL: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_PREFIX: `drive-bench-listing:${process.pid}:`,
  });
  const targets: Target[] = [];
  try {
    const headers = await signIn(server.url, admin);
    const cpuOf = () => treeCpuMs(server.process.pid!);
    for (const label of ['folder of 10k, first page', 'root, first page']) {
      const one = rows.find((row) => row.label === label);
      const call = calls.find((c) => c.label === label);
      if (!one || !call) continue;
      const r = await load(`${server.url}${call.url}`, headers, cpuOf, { clients: call.clients });
      const ratio = r.rps / one.rps;
      console.log(...loadColumns(`${label}, WORKERS=${workers}`, call.clients, r), `| one process ${one.rps.toFixed(0)} req/s, ${ratio.toFixed(2)}×`);
      targets.push({
        target: `${label}, WORKERS=${workers} on PostgreSQL: ≥ 1.7× one process`,
        measured: `${ratio.toFixed(2)}× (${r.rps.toFixed(0)} against ${one.rps.toFixed(0)} req/s; server CPU ${r.cpuMs.toFixed(2)} against ${one.cpuMs.toFixed(2)} ms a response)`,
        met: ratio >= 1.7,
        why:
          `${os.availableParallelism()} CPUs, load average ${os
            .loadavg()
            .map((l) => l.toFixed(1))
            .join(' ')}: the two workers, PostgreSQL and the load client share the cores, so\n` +
          'the ratio is bounded by the cores free for the workers; the CPU a response says whether the second process adds work of its own.\n' +
          'What would meet it: cores for the second worker beside PostgreSQL and the load client (one process already keeps ~1.6 of two busy).',
      });
    }
  } finally {
    await server.stop();
  }
  return targets;
}

/**
 * A seeded drive: a new one in a temporary folder, or with BENCH_DATA_DIR the one a
 * previous run left there (seeding a million entries takes minutes; the seed's
 * parameters and database are written beside it, and a folder seeded otherwise is refused).
 */
async function seededDataDir(): Promise<string> {
  const kept = process.env.BENCH_DATA_DIR;
  const dataDir = kept ? path.resolve(kept) : await fs.mkdtemp(path.join(os.tmpdir(), 'drive-bench-listing-'));
  const marker = path.join(dataDir, 'bench-seed.json');
  const seed = JSON.stringify({ total, bigFolder, database: process.env.DATABASE_URL ?? 'sqlite', content: process.env.BENCH_CONTENT !== '0' });
  if (kept) {
    await fs.mkdir(dataDir, { recursive: true });
    const found = await fs.readFile(marker, 'utf8').catch(() => null);
    if (found === seed) {
      console.log(`reusing the drive seeded in ${dataDir}`);
      return dataDir;
    }
    if (found !== null || (await fs.readdir(dataDir)).length) throw new Error(`${dataDir} holds another seed (${found ?? 'unknown'}); give an empty folder`);
  }
  console.log(`seeding ${total} entries…`);
  await seedDrive(dataDir, admin, total, bigFolder);
  if (kept) await fs.writeFile(marker, seed);
  return dataDir;
}

/** Issue 19's and 38's listing, revalidation and search targets, judged from this run. */
function targetsOf(
  rows: (Load & { label: string; bareRps: number; ratio: number })[],
  costs: Map<string, Breakdown>,
  paths: { folderPath: string; rootPath: string; searchPath: string },
): Target[] {
  const row = (label: string) => rows.find((r) => r.label === label);
  const targets: Target[] = [];
  const missWhy = (cost: Breakdown | undefined, ratio: number, bareRps: number, extra: string) => {
    const budget = budgetMs(ratio, bareRps);
    return (
      `one process has ~${budget.toFixed(2)} ms of one core per request for ${ratio}× of ${bareRps.toFixed(0)} req/s; ` +
      `${cost ? describeBreakdown(cost) : 'no breakdown'}.\n${extra}`
    );
  };
  const listingExtra =
    'What would meet it: no single part is near the budget (see the breakdown); reading 51 rows of 25 columns through better-sqlite3 alone\n' +
    'costs more. A per-folder cache of the serialised page would, for repeated identical requests, but the app already turns those into\n' +
    '304s (the revalidation line); several processes (WORKERS=N on PostgreSQL) multiply req/s by the cores, outside "one process".';
  // Issue 38 §3's (issue 19 asked 0.15× and p99 ≤ 20 ms).
  for (const [label, url] of [
    ['folder of 10k, first page', paths.folderPath],
    ['root, first page', paths.rootPath],
  ] as const) {
    const r = row(label);
    if (!r) continue;
    targets.push({
      target: `${label}: ≥ 0.08× bare, p99 ≤ 40 ms at ${connections} connections`,
      measured: `${r.ratio.toFixed(2)}×, p99 ${r.p99} ms (server CPU ${r.cpuMs.toFixed(2)} ms a response)`,
      met: r.ratio >= 0.08 && r.p99 <= 40,
      why: missWhy(
        costs.get(url),
        0.08,
        r.bareRps,
        // Little's law: with every connection's request outstanding, the mean wait is connections / throughput.
        `${listingExtra}\nThe p99: ${connections} requests always outstanding make the mean latency ${connections} / req/s = ${((connections / r.rps) * 1000).toFixed(0)} ms here; ` +
          `p99 ≤ 40 ms needs ≥ ${Math.ceil(connections / 0.04)} req/s from one process whatever the pauses.`,
      ),
    });
  }
  const folderCost = costs.get(paths.folderPath);
  if (folderCost) {
    targets.push({
      target: "the folder page's part that is neither SQL nor serialising: ≤ 0.3 ms",
      measured: `${restMs(folderCost).toFixed(2)} ms (wall time in-process, inject's own work left out)`,
      met: restMs(folderCost) <= 0.3,
      why:
        `${describeBreakdown(folderCost)}; the hooks' and handler's figures above say where it goes. Wall time on a loaded machine\n` +
        'counts the time other processes held the core: the CPU figure and the load average say how far to trust it.',
    });
  }
  const revalidated = row('folder of 10k, revalidated (304)');
  if (revalidated) {
    targets.push({
      target: 'revalidation with If-None-Match: ≥ 0.3× bare',
      measured: `${revalidated.ratio.toFixed(2)}×`,
      met: revalidated.ratio >= 0.3,
      why: 'the 304 is answered from the data version and the session cache, before any statement; see the p50 above.',
    });
  }
  const search = row('name search "invoice 12"');
  if (search && total < 1_000_000) {
    targets.push({
      target: `name search over ${total}: ≥ 0.1× bare`,
      measured: `${search.ratio.toFixed(2)}×`,
      met: search.ratio >= 0.1,
      why: missWhy(
        costs.get(paths.searchPath),
        0.1,
        search.bareRps,
        'Measured reason: the page is built from the search index\'s matches (111 for "invoice 12"): listing them from the trigram index\n' +
          '(one capped statement) and reading 51 rows by id, two statements (see the breakdown). What is left is the fixed cost of a request,\n' +
          "the same as a folder page's (the listing line's reason); what would meet it is what would meet that line.",
      ),
    });
  }
  const search16 = row('name search, 16 connections');
  if (search16 && total >= 1_000_000) {
    targets.push({
      target: `name search over ${total}: p95 ≤ 50 ms at 16 connections`,
      measured: `p95 ${search16.p95} ms (p50 ${search16.p50}, p99 ${search16.p99})`,
      met: search16.p95 <= 50,
      why:
        `${describeBreakdown(costs.get(paths.searchPath)!)}; 16 requests queue behind each other on one core, so p95 is ~16x one request\n` +
        (process.env.DATABASE_URL
          ? 'plus the wait. The page is built from the 1,111 matches of "invoice 12": PostgreSQL\'s backend spends ~5 ms of CPU on the capped\n' +
            "list of matches (the trigram index's bitmap and a recheck of each candidate row) and ~1.6 ms on the page (51 rows by id, in the\n" +
            "list's order), the server ~3.5 ms on the request (mostly a listing request's fixed cost, issue 38 §3): ~10 ms of CPU a search on\n" +
            'two cores, so 16 queued searches take ≥ ~80 ms. What would meet it: ≤ ~6 ms in all (the trigram list ~2 ms, the fixed cost ~1), or more cores.'
          : 'plus the wait. The page is built from the 1,111 matches of "invoice 12": at idle its two statements take ~1.3 ms of CPU (the\n' +
            "FTS5 phrase of 8 trigrams, lists of ~100k rows each, 0.7; the page's ids from the matches, 0.6) of ~6 ms a request; the rest is a\n" +
            "listing request's fixed cost. What would meet it: ≤ ~2.5 ms a request, i.e. that fixed cost cut (issue 38 §3), or WORKERS=2 on PostgreSQL."),
    });
  }
  return targets;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

/** A load line's first columns (label, connections, req/s, percentiles, CPU a response), as the table's header lays them out. */
function loadColumns(label: string, clients: number, r: { rps: number; p50: number; p95: number; p975: number; p99: number; cpuMs: number }): string[] {
  return [
    label.padEnd(34),
    String(clients).padStart(5),
    r.rps.toFixed(0).padStart(8),
    String(r.p50).padStart(8),
    String(r.p95).padStart(7),
    String(r.p975).padStart(7),
    String(r.p99).padStart(8),
    r.cpuMs.toFixed(3).padStart(7),
  ];
}
