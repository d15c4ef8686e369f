/**
 * WebDAV request bodies (issue 30 finding 1): PROPFIND bodies of 1 KiB, 64 KiB
 * and 1 MiB, nested 10 deep, 1,000 deep (past the limit: refused with 400) and
 * at the depth limit, sent to the app in its own process beside a bare
 * Fastify route in another that receives the same body whole (the reference,
 * measured in the same run, A/B alternating). Prints the median time per
 * byte of each and their ratio; the time per byte above a request with no
 * body (the same at 64 KiB and 1 MiB when the work is linear in size, 16×
 * more were it quadratic); and the app's RSS above idle while 8 bodies of
 * 1 MiB are answered at once. Asserts nothing.
 *
 *   npm run bench:webdav-xml          (BENCH_ROUNDS=1: 25 repetitions per round; -- --json out.json)
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

  // Every repetition sends each body once to each server in turn, the bodiless request included, so a change in
  // the machine's load (2 shared cores) falls on every figure alike. The bodiless PROPFIND (allprop) is what a
  // request costs without its bytes: subtracted, what is left is the cost of the bytes.
  const samples = new Map<string, { app: number[]; bare: number[]; status: number }>();
  const sample = (key: string) => samples.get(key) ?? samples.set(key, { app: [], bare: [], status: 0 }).get(key)!;
  for (let i = 0; i < 25 * rounds; i += 1) {
    for (const { size, depth, body } of [{ size: 0, depth: 0, body: '' }, ...cases]) {
      const entry = sample(`${size}/${depth}`);
      const ours = await app_(body);
      entry.status = ours.status;
      entry.app.push(ours.ms);
      entry.bare.push((await bare_(body)).ms);
    }
  }
  const fixed = { app: median(sample('0/0').app), bare: median(sample('0/0').bare) };
  const rows: Row[] = cases.map(({ size, depth, body }) => {
    const bytes = Buffer.byteLength(body);
    const entry = sample(`${size}/${depth}`);
    const a = median(entry.app);
    const b = median(entry.bare);
    return { size, bytes, depth, status: entry.status, appMs: a, bareMs: b, appNsPerByte: (a * 1e6) / bytes, bareNsPerByte: (b * 1e6) / bytes, ratio: a / b };
  });

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

  // Time per byte above the empty request: equal at 64 KiB and 1 MiB when the work is linear in size.
  console.log(`\ntime per byte above a request with no body (app ${fixed.app.toFixed(2)} ms, bare ${fixed.bare.toFixed(2)} ms), ns/B, app (bare)`);
  const net = (r: Row) => ({ app: ((r.appMs - fixed.app) * 1e6) / r.bytes, bare: ((r.bareMs - fixed.bare) * 1e6) / r.bytes });
  const growth: { depth: number; factor: number; parsed: boolean }[] = [];
  for (const depth of DEPTHS) {
    const [medium, large] = [64 * KiB, MAX_XML_BYTES].map((size) => rows.find((r) => r.depth === depth && r.size === size)!);
    const [m, l] = [net(medium!), net(large!)];
    growth.push({ depth, factor: l.app / m.app, parsed: large!.status === 207 });
    console.log(
      `  depth ${String(depth).padStart(4)} (${large!.status}): 64 KiB ${m.app.toFixed(1)} (${m.bare.toFixed(1)}), 1 MiB ${l.app.toFixed(1)} (${l.bare.toFixed(1)}); ` +
        `1 MiB / 64 KiB ${(l.app / m.app).toFixed(2)}`,
    );
  }

  console.log(
    `\nRSS with ${PARALLEL} PROPFIND bodies of 1 MiB at once: app idle ${(idle.rss / MiB).toFixed(0)} MiB, bare idle ${(bareIdle / MiB).toFixed(0)} MiB`,
  );
  for (const m of memory)
    console.log(
      `  depth ${String(m.depth).padStart(4)} (answers ${m.statuses.join(', ')}): app +${m.peakAboveIdleMiB.toFixed(1)} MiB, bare +${m.bareAboveIdleMiB.toFixed(1)} MiB`,
    );

  const worstGrowth = Math.max(...memory.map((m) => m.peakAboveIdleMiB));
  const linear = Math.max(...growth.filter((g) => g.parsed).map((g) => g.factor));
  const atMiB = rows.filter((r) => r.size === MAX_XML_BYTES);
  const shallow = atMiB.find((r) => r.depth === DEPTHS[0])!.appNsPerByte;
  const depthFactor = Math.max(...atMiB.map((r) => r.appNsPerByte)) / shallow;
  printTargets([
    {
      target: 'time linear in size: above a bodiless request, a byte of a 1 MiB body costs at most 2× one of a 64 KiB body (quadratic: 16×), every depth read',
      measured: `worst ${linear.toFixed(2)}×`,
      met: linear <= 2,
    },
    {
      target: `depth does not multiply the cost: a 1 MiB body at depth 1,000 or ${XML_MAX_DEPTH} costs at most 2× per byte what one at depth 10 does`,
      measured: `worst ${depthFactor.toFixed(2)}×`,
      met: depthFactor <= 2,
    },
    {
      target: `app RSS within 64 MiB of idle while ${PARALLEL} bodies of 1 MiB are answered at once`,
      measured: `+${worstGrowth.toFixed(1)} MiB`,
      met: worstGrowth <= 64,
    },
  ]);
  await writeJson('webdav-xml', [{ fixed }, ...rows, ...growth, ...memory]);
  await bare.stop();
  await app.stop();
  await fs.rm(dir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
