/**
 * The cost of observability (issue 33): the same app with metrics and error
 * reporting on (sample rate 1, a local envelope receiver as the DSN) against
 * both off (METRICS_ENABLED=false, no DSN), in the same run, on a listing and
 * on small multipart uploads. Prints req/s, p50, p99 and the on/off ratio
 * (target: within 10%). Off and on alternate twice and the better of each is
 * kept, so a noisy neighbour on the shared machine does not decide alone.
 * Asserts nothing.
 *
 *   npx tsx tests/bench/observability.ts        (BENCH_SECONDS=4, BENCH_ENTRIES=2000)
 *
 * Not measured yet: OpenTelemetry tracing, which this branch does not have yet.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startSentryReceiver } from '../peers/sentry-receiver.js';
import { seedDrive } from './lib/seed.js';
import { signIn, startServer } from './lib/server.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const total = Number(process.env.BENCH_ENTRIES ?? 2000);
const admin = { email: 'bench@example.com', password: 'bench password' };
const run = promisify(execFile);

interface Load {
  rps: number;
  p50: number;
  p99: number;
}

async function load(url: string, headers: Record<string, string>, options: { method?: string; body?: Buffer; clients: number }): Promise<Load> {
  const args = ['--json', '-c', String(options.clients), '-d', String(seconds), ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}=${v}`])];
  let bodyFile: string | null = null;
  if (options.body) {
    bodyFile = path.join(os.tmpdir(), `bench-obs-body-${process.pid}`);
    await fs.writeFile(bodyFile, options.body);
    args.push('-m', options.method ?? 'POST', '-i', bodyFile);
  }
  const { stdout } = await run(path.resolve('node_modules/.bin/autocannon'), [...args, url], { maxBuffer: 16 * 1024 * 1024 });
  const r = JSON.parse(stdout) as { non2xx: number; errors: number; requests: { average: number }; latency: { p50: number; p99: number } };
  if (r.non2xx || r.errors) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99 };
}

function multipart(content: Buffer) {
  const boundary = '----bench-observability';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="parentId"\r\n\r\n0\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

async function measure(dataDir: string, env: Record<string, string>): Promise<{ listing: Load; upload: Load }> {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  const app = await startServer(dataDir, admin);
  process.env = saved;
  try {
    const headers = await signIn(app.url, admin);
    const listing = await load(`${app.url}/api/v1/drive/file-entries?perPage=50&orderBy=name&orderDir=asc`, headers, { clients: 32 });
    const { body, contentType } = multipart(Buffer.alloc(16 * 1024, 1));
    const upload = await load(`${app.url}/api/v1/file-entries`, { ...headers, 'content-type': contentType }, { body, clients: 8 });
    return { listing, upload };
  } finally {
    await app.stop();
  }
}

const best = (a: Load, b: Load) => (a.rps >= b.rps ? a : b);
const row = (label: string, off: Load, on: Load) =>
  `${label.padEnd(10)} off ${off.rps.toFixed(0).padStart(6)} req/s p50 ${off.p50} p99 ${off.p99} ms | on ${on.rps.toFixed(0).padStart(6)} req/s p50 ${on.p50} p99 ${on.p99} ms | on/off ${(on.rps / off.rps).toFixed(3)}`;

async function main() {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'drive-bench-obs-'));
  const receiver = await startSentryReceiver();
  console.log(`seeding ${total} entries…`);
  await seedDrive(dataDir, admin, total, Math.min(1000, total));
  const off = { METRICS_ENABLED: 'false', SENTRY_DSN: '' };
  const on = { METRICS_ENABLED: 'true', METRICS_TOKEN: 'bench-metrics-token-0123456789', SENTRY_DSN: receiver.dsn, SENTRY_SAMPLE_RATE: '1' };
  const results: { off: Awaited<ReturnType<typeof measure>>[]; on: Awaited<ReturnType<typeof measure>>[] } = { off: [], on: [] };
  for (let round = 0; round < 2; round += 1) {
    results.off.push(await measure(dataDir, off));
    results.on.push(await measure(dataDir, on));
  }
  const offListing = best(results.off[0]!.listing, results.off[1]!.listing);
  const onListing = best(results.on[0]!.listing, results.on[1]!.listing);
  const offUpload = best(results.off[0]!.upload, results.off[1]!.upload);
  const onUpload = best(results.on[0]!.upload, results.on[1]!.upload);
  console.log('observability on (metrics, error reporting at rate 1, request ids) against off, same run:');
  console.log(row('listing', offListing, onListing));
  console.log(row('upload', offUpload, onUpload));
  for (const [label, ratio] of [
    ['listing', onListing.rps / offListing.rps],
    ['upload', onUpload.rps / offUpload.rps],
  ] as const) {
    console.log(`${label}: ${ratio >= 0.9 ? 'within' : 'OUTSIDE'} the 10% target (${((1 - ratio) * 100).toFixed(1)}% slower)`);
  }
  console.log(`error reports received during the run: ${receiver.events().length} (none expected: no request failed)`);
  await receiver.close();
  await fs.rm(dataDir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
