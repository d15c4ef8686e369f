/**
 * The cost of observability (issue 33): the same app with metrics, error
 * reporting and OpenTelemetry tracing on, both at sample rate 1 (a local
 * Sentry envelope receiver as the DSN, a local OTLP receiver as the traces
 * endpoint), against all off (METRICS_ENABLED=false, no DSN, no endpoint), on
 * the barest route the app has (GET /api/v1/health: no session, one database
 * ping, where per-request hooks weigh most), on a listing, and on small
 * multipart uploads. Prints req/s, p50, p99, the on/off ratio and the server
 * process's CPU time per request (target: within 10%). Asserts no ratio.
 *
 * The servers run side by side, each on its own copy of one seeded drive, and
 * the load alternates between them in one-second slices (order reversed every
 * other slice): a noisy neighbour on two shared cores moves throughput by
 * 20–40% from one run to the next, and only requests interleaved this finely
 * meet the same conditions. Each row starts with unmeasured seconds per
 * server (BENCH_WARMUP, 3: the compiler's work on a fresh process is paid
 * once, not per request; the paired cycles are printed in time order to show
 * it has settled), and the upload row waits for the jobs its uploads queued (text
 * extraction) and charges them to it. The "on" side is checked to be real:
 * spans reached its OTLP receiver and its /metrics counted the requests. The
 * receivers run in this process, so their work is not the server's.
 *
 *   npm run bench:observability   (BENCH_SLICES=4 a side and row, BENCH_ENTRIES=2000; BENCH_SPLIT=1 adds each part alone;
 *   BENCH_ROWS=upload,listing runs only those rows — with BENCH_CPU_PROF=dir, a profile of just that work, and the
 *   requests each server answered, warm-up included, to divide it by; BENCH_AA=1 BENCH_SPIN_US=40 calibrates the measure)
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startOtlpReceiver, type OtlpReceiver } from '../peers/otlp-receiver.js';
import { startSentryReceiver } from '../peers/sentry-receiver.js';
import { seedDrive } from './lib/seed.js';
import { signIn, startServer, type RunningServer } from './lib/server.js';

const slices = Number(process.env.BENCH_SLICES ?? 4);
const total = Number(process.env.BENCH_ENTRIES ?? 2000);
const split = process.env.BENCH_SPLIT === '1';
const aa = process.env.BENCH_AA === '1';
// Seconds of unmeasured load per server and row before the slices. The "on" server has more code for V8 to optimise
// (its background compiler threads were busier), and at 1 s its first paired cycles cost 14-38% against 3-11% later.
const warmup = Number(process.env.BENCH_WARMUP ?? 3);
const ROWS = ['bare', 'listing', 'upload'] as const;
const chosen = process.env.BENCH_ROWS ? process.env.BENCH_ROWS.split(',').map((name) => name.trim()) : [...ROWS];
for (const name of chosen) if (!(ROWS as readonly string[]).includes(name)) throw new Error(`BENCH_ROWS: no row named ${name} (${ROWS.join(', ')})`);
const admin = { email: 'bench@example.com', password: 'bench password' };
const run = promisify(execFile);
const autocannon = path.resolve('node_modules/.bin/autocannon');
const METRICS_TOKEN = 'bench-metrics-token-0123456789';

/** User + system CPU time of a process so far, in ms (Linux /proc; clock ticks of 10 ms). */
async function cpuMs(pid: number): Promise<number> {
  const fields = (await fs.readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

interface Side {
  label: string;
  app: RunningServer;
  pid: number;
  headers: Record<string, string>;
  dataDir: string;
  otlp: OtlpReceiver | null;
}

interface Request {
  path: string;
  clients: number;
  body?: { file: string; contentType: string };
  signedIn: boolean;
}

interface Slice {
  requests: number;
  p50: number;
  p99: number;
}

async function slice(side: Side, request: Request, seconds: number): Promise<Slice> {
  const headers = request.signedIn ? { ...side.headers } : {};
  if (request.body) headers['content-type'] = request.body.contentType;
  const args = ['--json', '-c', String(request.clients), '-d', String(seconds), ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}=${v}`])];
  if (request.body) args.push('-m', 'POST', '-i', request.body.file);
  const { stdout } = await run(autocannon, [...args, `${side.app.url}${request.path}`], { maxBuffer: 16 * 1024 * 1024 });
  const r = JSON.parse(stdout) as { non2xx: number; errors: number; requests: { total: number }; latency: { p50: number; p99: number } };
  if (r.non2xx || r.errors) throw new Error(`${side.label} ${request.path}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { requests: r.requests.total, p50: r.latency.p50, p99: r.latency.p99 };
}

interface Load {
  rps: number;
  /** The slices' medians. */
  p50: number;
  p99: number;
  /** The server process's CPU time (user + system, all its threads) per request, in µs. */
  cpuUs: number;
  /**
   * The same per cycle: from the start of one of this side's slices to the start of its next (the last to the
   * row's end), so each cycle holds its requests and whatever the process did in the background meanwhile.
   */
  cycleCpuUs: number[];
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** One row: every side warmed, then `slices` one-second slices each, interleaved; `after` is charged to the row. */
async function row(sides: Side[], request: Request, after?: (side: Side) => Promise<void>): Promise<Map<Side, Load>> {
  const warmed = new Map<Side, number>();
  for (const side of sides) warmed.set(side, (await slice(side, request, warmup)).requests);
  const before = new Map<Side, number>();
  for (const side of sides) before.set(side, await cpuMs(side.pid));
  const taken = new Map<Side, Slice[]>(sides.map((side) => [side, []]));
  const marks = new Map<Side, number[]>(sides.map((side) => [side, []]));
  for (let i = 0; i < slices; i += 1) {
    for (const side of i % 2 === 0 ? sides : [...sides].reverse()) {
      marks.get(side)!.push(await cpuMs(side.pid));
      taken.get(side)!.push(await slice(side, request, 1));
    }
  }
  // The exporter sends its batch up to a second after the last span: that work belongs to these requests.
  await new Promise((resolve) => setTimeout(resolve, 1200));
  const loads = new Map<Side, Load>();
  for (const side of sides) {
    await after?.(side);
    const end = await cpuMs(side.pid);
    const used = end - before.get(side)!;
    const parts = taken.get(side)!;
    const requests = parts.reduce((sum, part) => sum + part.requests, 0);
    // A CPU profile covers the warm-up too: the whole count lets a reader divide it per request.
    if (process.env.BENCH_CPU_PROF) console.log(`pid ${side.pid}: ${requests + warmed.get(side)!} requests with the warm-up`);
    const cycles = [...marks.get(side)!, end];
    loads.set(side, {
      rps: requests / slices,
      p50: median(parts.map((part) => part.p50)),
      p99: median(parts.map((part) => part.p99)),
      cpuUs: (used * 1000) / requests,
      cycleCpuUs: parts.map((part, i) => ((cycles[i + 1]! - cycles[i]!) * 1000) / part.requests),
    });
  }
  return loads;
}

function multipartFile(content: Buffer) {
  const boundary = '----bench-observability';
  return {
    body: Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="parentId"\r\n\r\n0\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`),
      content,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** The requests drive_http_request_duration_seconds counted, from the Prometheus text. */
const countedRequests = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.startsWith('drive_http_request_duration_seconds_count{'))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);

/** Until the server's job queue is empty (the text extraction each upload queued). */
async function drained(side: Side): Promise<void> {
  const deadline = Date.now() + 600_000;
  for (;;) {
    const report = await fetch(`${side.app.url}/api/v1/admin/health`, { headers: side.headers });
    if (!report.ok) throw new Error(`admin health answered ${report.status}`);
    const { jobs } = (await report.json()) as { jobs: { waiting: number } };
    if (jobs.waiting === 0) return;
    if (Date.now() > deadline) throw new Error(`${side.label}: ${jobs.waiting} jobs still waiting after 10 minutes`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function main() {
  const seeded = await fs.mkdtemp(path.join(os.tmpdir(), 'drive-bench-obs-'));
  const receiver = await startSentryReceiver();
  console.log(`seeding ${total} entries…`);
  await seedDrive(seeded, admin, total, Math.min(1000, total));
  const bodyFile = path.join(os.tmpdir(), `drive-bench-obs-body-${process.pid}`);
  const { body, contentType } = multipartFile(Buffer.alloc(16 * 1024, 1));
  await fs.writeFile(bodyFile, body);

  // Empty values, not absent ones: the parent's environment must not switch anything on in the "off" server.
  const off = { METRICS_ENABLED: 'false', SENTRY_DSN: '', OTEL_EXPORTER_OTLP_ENDPOINT: '', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '' };
  const metrics = { METRICS_ENABLED: 'true', METRICS_TOKEN };
  const errors = { SENTRY_DSN: receiver.dsn, SENTRY_SAMPLE_RATE: '1' };
  const spinUs = Number(process.env.BENCH_SPIN_US ?? 0);
  const spin = spinUs > 0 ? { SPIN_US: String(spinUs), BENCH_NODE_ARGS: `--import ${path.join(import.meta.dirname, 'lib', 'spin.mjs')}` } : {};
  const traces = (otlp: OtlpReceiver) => ({ OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint, OTEL_TRACES_SAMPLER_ARG: '1' });
  const plans: { label: string; traced: boolean; env: (otlp: OtlpReceiver | null) => Record<string, string> }[] = [
    { label: 'off', traced: false, env: () => off },
    // BENCH_AA=1: the "on" side is a second "off" server, so the printed cost is what the measure's noise alone shows.
    // With BENCH_SPIN_US=N too, that second server spends N µs more of CPU on each request (lib/spin.mjs).
    aa
      ? { label: 'on', traced: false, env: () => ({ ...off, ...spin }) }
      : { label: 'on', traced: true, env: (otlp) => ({ ...off, ...metrics, ...errors, ...traces(otlp!) }) },
    ...(split
      ? [
          { label: 'metrics only', traced: false, env: () => ({ ...off, ...metrics }) },
          { label: 'errors only', traced: false, env: () => ({ ...off, ...errors }) },
          { label: 'traces only', traced: true, env: (otlp: OtlpReceiver | null) => ({ ...off, ...traces(otlp!) }) },
        ]
      : []),
  ];
  const sides: Side[] = [];
  try {
    for (const plan of plans) {
      const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'drive-bench-obs-side-'));
      await fs.cp(seeded, dataDir, { recursive: true });
      const otlp = plan.traced ? await startOtlpReceiver({ keep: false }) : null;
      const app = await startServer(dataDir, admin, undefined, plan.env(otlp));
      sides.push({ label: plan.label, app, pid: app.process.pid!, headers: await signIn(app.url, admin), dataDir, otlp });
    }
    const requests: Record<(typeof ROWS)[number], [Request, ((side: Side) => Promise<void>)?]> = {
      bare: [{ path: '/api/v1/health', clients: 32, signedIn: false }],
      listing: [{ path: '/api/v1/drive/file-entries?perPage=50&orderBy=name&orderDir=asc', clients: 32, signedIn: true }],
      upload: [{ path: '/api/v1/file-entries', clients: 8, signedIn: true, body: { file: bodyFile, contentType } }, drained],
    };
    const rows: Record<string, Map<Side, Load>> = {};
    for (const name of ROWS) if (chosen.includes(name)) rows[name] = await row(sides, ...requests[name]);

    const [offSide, onSide] = sides as [Side, Side];
    const scrape = await fetch(`${onSide.app.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    const counted = scrape.ok ? countedRequests(await scrape.text()) : 0;
    if (!counted && !aa) throw new Error('the "on" server counted no request in /metrics');
    if ((await fetch(`${offSide.app.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).ok)
      throw new Error('the "off" server served /metrics');
    const spans = aa ? 0 : onSide.otlp!.count();
    if (!spans && !aa) throw new Error('the "on" server exported no span: tracing was not on');

    console.log(`observability on (metrics, error reporting and tracing at rate 1, request ids) against off, interleaved, ${slices} s each:`);
    for (const [key, loads] of Object.entries(rows)) {
      const a = loads.get(offSide)!;
      const b = loads.get(onSide)!;
      console.log(
        `${key.padEnd(10)} off ${a.rps.toFixed(0).padStart(6)} req/s p50 ${a.p50} p99 ${a.p99} ms | on ${b.rps.toFixed(0).padStart(6)} req/s p50 ${b.p50} p99 ${b.p99} ms | on/off ${(b.rps / a.rps).toFixed(3)}`,
      );
    }
    console.log('server CPU time per request (user + system, all threads, export and queued jobs included):');
    for (const [key, loads] of Object.entries(rows)) {
      const a = loads.get(offSide)!;
      const b = loads.get(onSide)!;
      const cost = b.cpuUs / a.cpuUs - 1;
      // Cycle i of "on" against cycle i of "off" (adjacent in time): a noisy neighbour moves both.
      const paired = b.cycleCpuUs.map((on, i) => on / a.cycleCpuUs[i]! - 1).sort((x, y) => x - y);
      const typical = median(paired);
      console.log(
        `${key.padEnd(10)} paired cycles in time order: ${b.cycleCpuUs.map((on, i) => `${((on / a.cycleCpuUs[i]! - 1) * 100).toFixed(0)}%`).join(' ')}`,
      );
      const pct = (n: number) => `${n >= 0 ? '+' : ''}${(n * 100).toFixed(1)}%`;
      console.log(
        `${key.padEnd(10)} off ${a.cpuUs.toFixed(0).padStart(5)} µs | on ${b.cpuUs.toFixed(0).padStart(5)} µs | cost of rate 1 ${pct(cost)} over the row, ` +
          `${pct(typical)} the median of ${paired.length} paired cycles (${pct(paired[0]!)} to ${pct(paired.at(-1)!)}): ` +
          `${Math.max(cost, typical) <= 0.1 ? 'within' : 'OUTSIDE'} the 10% target`,
      );
    }
    for (const side of sides.slice(2)) {
      const parts = Object.entries(rows).map(([key, loads]) => {
        const a = loads.get(offSide)!;
        const b = loads.get(side)!;
        return `${key} ${(b.rps / a.rps).toFixed(3)} (CPU ${((b.cpuUs / a.cpuUs - 1) * 100).toFixed(0)}%)`;
      });
      console.log(`${side.label.padEnd(13)} on/off: ${parts.join(', ')}`);
    }
    console.log(`spans received from the "on" server: ${spans} for ${counted} requests its /metrics counted`);
    console.log(`error reports received during the run: ${receiver.events().length} (none expected: no request failed)`);
    console.log(
      `load average at the end: ${os
        .loadavg()
        .map((n) => n.toFixed(1))
        .join(' ')}`,
    );
  } finally {
    for (const side of sides) {
      await side.app.stop();
      await side.otlp?.close();
      await fs.rm(side.dataDir, { recursive: true, force: true });
    }
    await receiver.close();
    await fs.rm(seeded, { recursive: true, force: true });
    await fs.rm(bodyFile, { force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
