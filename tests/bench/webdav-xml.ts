/**
 * WebDAV request bodies (issue 30 finding 1): PROPFIND bodies of 1 KiB, 64 KiB
 * and 1 MiB, nested 10 deep, 1,000 deep (past the limit: refused with 400) and
 * at the depth limit, sent to the app in its own process beside a bare
 * Fastify route in another that receives the same body whole (the reference,
 * measured in the same run, A/B alternating). Prints the median time per
 * byte of each, their ratio, the marginal time per byte between sizes (the
 * same at both steps: linear), and the app's RSS above idle while 8 bodies of
 * 1 MiB are answered at once. Asserts nothing.
 *
 *   npm run bench:webdav-xml          (BENCH_ROUNDS=1 scales the repetitions; -- --json out.json)
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { XML_MAX_DEPTH } from '../../server/lib/xml.js';
import { MAX_XML_BYTES } from '../../server/modules/webdav/routes.js';
import { conditions, printTargets, writeJson } from './lib/report.js';
import { freePort, median, signIn, startServer } from './lib/server.js';

const admin = { email: 'bench@example.com', password: 'bench password' };
const rounds = Number(process.env.BENCH_ROUNDS ?? 1);
const KiB = 1024;
const SIZES = [KiB, 64 * KiB, MAX_XML_BYTES];
const DEPTHS = [10, 1000, XML_MAX_DEPTH];
const PARALLEL = 8;
const MiB = 2 ** 20;

/**
 * A PROPFIND body of `bytes` (or the least that reaches `depth`, when more):
 * propfind and prop, then elements nested to `depth`, the innermost level
 * being 256-byte elements with text that pad the body to its size, so every
 * size is mostly elements for the parser to read.
 */
function propfindBody(bytes: number, depth: number): string {
  const head = '<D:propfind xmlns:D="DAV:" xmlns="urn:bench"><D:prop>';
  const tail = '</D:prop></D:propfind>';
  const nested = depth - 3;
  const open = '<a>'.repeat(nested);
  const close = '</a>'.repeat(nested);
  const unit = `<p>${'x'.repeat(249)}</p>`;
  const room = Math.max(unit.length, bytes - head.length - open.length - close.length - tail.length);
  const padding = unit.repeat(Math.floor(room / unit.length)) + ' '.repeat(room % unit.length);
  return head + open + padding + close + tail;
}

async function timed(url: string, method: string, headers: Record<string, string>, body: string): Promise<{ ms: number; status: number }> {
  const t = performance.now();
  const response = await fetch(url, { method, headers, body });
  await response.arrayBuffer();
  return { ms: performance.now() - t, status: response.status };
}

async function startBare(): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/bench/lib/bare-body.ts', String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) resolve();
    });
    child.once('exit', () => reject(new Error('the bare reference exited')));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

async function rssOf(pid: number): Promise<number> {
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
}

/** The highest RSS of `pid` seen while `work` runs, sampled every 5 ms. */
async function peakWhile(pid: number, work: () => Promise<unknown>): Promise<number> {
  let peak = await rssOf(pid);
  let running = true;
  const sampler = (async () => {
    while (running) {
      peak = Math.max(peak, await rssOf(pid));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  try {
    await work();
  } finally {
    running = false;
    await sampler;
  }
  return Math.max(peak, await rssOf(pid));
}

interface Row {
  /** The size asked for; `bytes` is more when the nesting alone needs more. */
  size: number;
  bytes: number;
  depth: number;
  status: number;
  appMs: number;
  bareMs: number;
  appNsPerByte: number;
  bareNsPerByte: number;
  ratio: number;
}

async function main() {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'drive-bench-webdav-xml-'));
  const app = await startServer(path.join(dir, 'app'), admin);
  const bare = await startBare();
  const session = await signIn(app.url, admin);
  const created = await fetch(`${app.url}/api/v1/access-tokens`, {
    method: 'POST',
    headers: { ...session, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench', scopes: ['read'] }),
  });
  const token = ((await created.json()) as { plainTextToken: string }).plainTextToken;
  const davHeaders = {
    authorization: `Basic ${Buffer.from(`${admin.email}:${token}`).toString('base64')}`,
    depth: '0',
    'content-type': 'application/xml',
  };
  const davUrl = `${app.url}/dav/My%20drive/`;
  const app_ = (body: string) => timed(davUrl, 'PROPFIND', davHeaders, body);
  const bare_ = (body: string) => timed(`${bare.url}/dav`, 'POST', { 'content-type': 'application/xml' }, body);

  const cases = SIZES.flatMap((size) => DEPTHS.map((depth) => ({ size, depth, body: propfindBody(size, depth) })));
  for (const { body } of cases) for (let i = 0; i < 3; i += 1) await Promise.all([app_(body), bare_(body)]);

  const rows: Row[] = [];
  for (const { size, depth, body } of cases) {
    const bytes = Buffer.byteLength(body);
    const repetitions = Math.max(15, Math.round((rounds * 4 * MiB) / bytes / 20));
    const appMs: number[] = [];
    const bareMs: number[] = [];
    let status = 0;
    for (let i = 0; i < Math.min(repetitions, 200); i += 1) {
      const ours = await app_(body);
      status = ours.status;
      appMs.push(ours.ms);
      bareMs.push((await bare_(body)).ms);
    }
    const a = median(appMs);
    const b = median(bareMs);
    rows.push({ size, bytes, depth, status, appMs: a, bareMs: b, appNsPerByte: (a * 1e6) / bytes, bareNsPerByte: (b * 1e6) / bytes, ratio: a / b });
  }

  // Memory: idle after the runs above, then the highest RSS while 8 bodies of 1 MiB are answered at once, a few times over.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const idle = await app.memory();
  const bareIdle = await rssOf(bare.pid);
  const memory: { depth: number; peakAboveIdleMiB: number; bareAboveIdleMiB: number; statuses: number[] }[] = [];
  for (const depth of DEPTHS) {
    const body = propfindBody(MAX_XML_BYTES, depth);
    const burst = (send: (body: string) => Promise<{ status: number }>, statuses: Set<number>) => async () => {
      for (let round = 0; round < 5 * rounds; round += 1)
        for (const answer of await Promise.all(Array.from({ length: PARALLEL }, () => send(body)))) statuses.add(answer.status);
    };
    const statuses = new Set<number>();
    const peak = await peakWhile(app.process.pid!, burst(app_, statuses));
    const barePeak = await peakWhile(bare.pid, burst(bare_, new Set()));
    memory.push({ depth, peakAboveIdleMiB: (peak - idle.rss) / MiB, bareAboveIdleMiB: (barePeak - bareIdle) / MiB, statuses: [...statuses] });
  }

  const env = conditions();
  console.log(`\nPROPFIND bodies, loopback, SQLite, Node ${env.node}, ${env.cpus} CPUs, load average ${env.loadAverage.join(' ')}`);
  console.log(
    'bytes'.padStart(9),
    'depth'.padStart(6),
    'status'.padStart(7),
    'app ms'.padStart(8),
    'bare ms'.padStart(8),
    'app ns/B'.padStart(9),
    'bare ns/B'.padStart(10),
    'ratio'.padStart(7),
  );
  for (const r of rows) {
    console.log(
      String(r.bytes).padStart(9),
      String(r.depth).padStart(6),
      String(r.status).padStart(7),
      r.appMs.toFixed(2).padStart(8),
      r.bareMs.toFixed(2).padStart(8),
      r.appNsPerByte.toFixed(1).padStart(9),
      r.bareNsPerByte.toFixed(1).padStart(10),
      r.ratio.toFixed(2).padStart(7),
    );
  }

  // What a byte more costs, between the sizes: equal steps mean time linear in size, whatever the depth.
  console.log('\nmarginal time per byte (ns) between sizes, app (bare)');
  const slopes: { depth: number; small: number; large: number; bareLarge: number }[] = [];
  for (const depth of DEPTHS) {
    const [s, m, l] = SIZES.map((size) => rows.find((r) => r.depth === depth && r.size === size)!);
    const slope = (x: Row, y: Row, key: 'appMs' | 'bareMs') => ((y[key] - x[key]) * 1e6) / (y.bytes - x.bytes);
    const entry = { depth, small: slope(s!, m!, 'appMs'), large: slope(m!, l!, 'appMs'), bareLarge: slope(m!, l!, 'bareMs') };
    slopes.push(entry);
    console.log(
      `  depth ${String(depth).padStart(4)}: ${s!.bytes}→${m!.bytes} B ${entry.small.toFixed(1)} (${slope(s!, m!, 'bareMs').toFixed(1)}), ` +
        `${m!.bytes}→${l!.bytes} B ${entry.large.toFixed(1)} (${entry.bareLarge.toFixed(1)}); ratio to bare ${(entry.large / entry.bareLarge).toFixed(2)}`,
    );
  }

  console.log(`\nRSS with ${PARALLEL} PROPFIND bodies of 1 MiB at once: app idle ${(idle.rss / MiB).toFixed(0)} MiB, bare idle ${(bareIdle / MiB).toFixed(0)} MiB`);
  for (const m of memory)
    console.log(
      `  depth ${String(m.depth).padStart(4)} (answers ${m.statuses.join(', ')}): app +${m.peakAboveIdleMiB.toFixed(1)} MiB, bare +${m.bareAboveIdleMiB.toFixed(1)} MiB`,
    );

  const worstGrowth = Math.max(...memory.map((m) => m.peakAboveIdleMiB));
  const stepSpread = Math.max(...slopes.map((s) => s.large / Math.max(s.small, 1e-9)));
  const atMiB = rows.filter((r) => r.bytes === MAX_XML_BYTES);
  const depthSpread = Math.max(...atMiB.map((r) => r.appNsPerByte)) / Math.min(...atMiB.map((r) => r.appNsPerByte));
  printTargets([
    {
      target: 'time linear in size: a byte of the 64 KiB→1 MiB step costs at most 2× one of the 1 KiB→64 KiB step, at every depth',
      measured: `worst ${stepSpread.toFixed(2)}×`,
      met: stepSpread <= 2,
    },
    {
      target: 'time per byte of 1 MiB bodies within 2× across depths 10, 1,000 and the limit',
      measured: `${depthSpread.toFixed(2)}×`,
      met: depthSpread <= 2,
    },
    { target: `app RSS within 64 MiB of idle while ${PARALLEL} bodies of 1 MiB are answered at once`, measured: `+${worstGrowth.toFixed(1)} MiB`, met: worstGrowth <= 64 },
  ]);
  await writeJson('webdav-xml', [...rows, ...memory]);
  await bare.stop();
  await app.stop();
  await fs.rm(dir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
