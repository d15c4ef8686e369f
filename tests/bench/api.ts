/**
 * Throughput of the API against a reference measured in the same run, on the
 * same machine: a bare Fastify route that answers the same bytes with no
 * database, sessions or XSRF work. Prints each pair and the ratio; it asserts
 * nothing (timings never belong in unit tests).
 *
 *   npm run bench:api        (BENCH_SECONDS=5 by default; -- --json out.json)
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import Fastify from 'fastify';
import { buildApp, servicesOf } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { ensureFirstAdmin } from '../../server/modules/setup/first-admin.js';
import { breakdown, describeBreakdown } from './lib/breakdown.js';
import { budgetMs, conditions, printTargets, writeJson } from './lib/report.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = 10;

const run = promisify(execFile);

/** The load comes from a second process so it does not share the servers' event loop. */
async function measure(url: string, headers: Record<string, string> = {}): Promise<number> {
  const args = ['--json', '-c', String(connections), '-d', String(seconds), ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}=${v}`]), url];
  const { stdout } = await run(path.resolve('node_modules/.bin/autocannon'), args, { maxBuffer: 16 * 1024 * 1024 });
  const result = JSON.parse(stdout) as { non2xx: number; errors: number; requests: { average: number } };
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

async function main() {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'drive-bench-'));
  const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', WEB_DIST_DIR: path.join(dataDir, 'none') });
  const app = await buildApp({ config, logger: false });
  await ensureFirstAdmin(servicesOf(app).db.kysely, { email: 'bench@example.com', password: 'bench password' });
  const appUrl = await app.listen({ host: '127.0.0.1', port: 0 });

  // Sign in once, like a browser would, to measure the signed-in path too.
  const first = await fetch(`${appUrl}/api/v1/health`);
  const xsrf = /XSRF-TOKEN=([^;]+)/.exec(first.headers.get('set-cookie') ?? '')![1]!;
  const login = await fetch(`${appUrl}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf },
    body: JSON.stringify({ email: 'bench@example.com', password: 'bench password' }),
  });
  const session = /drive_session=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')![1]!;
  const cookie = `XSRF-TOKEN=${xsrf}; drive_session=${session}`;

  const guestBody = await (await fetch(`${appUrl}/api/v1/bootstrap-data`)).text();
  const userBody = await (await fetch(`${appUrl}/api/v1/bootstrap-data`, { headers: { cookie } })).text();

  const bare = Fastify({ logger: false });
  // The gzip reference compresses once up front: the floor for serving those bytes.
  const userGzip = gzipSync(userBody);
  bare.get('/user-gzip', (_req, reply) => reply.type('application/json').header('content-encoding', 'gzip').send(userGzip));
  bare.get('/guest', (_req, reply) => reply.type('application/json').send(guestBody));
  bare.get('/user', (_req, reply) => reply.type('application/json').send(userBody));
  bare.get('/health', () => ({ status: 'ok' }));
  const bareUrl = await bare.listen({ host: '127.0.0.1', port: 0 });

  const rows: [string, number, number][] = [];
  const gzip = { 'accept-encoding': 'gzip' };
  for (const [label, ours, reference, headers, refHeaders] of [
    ['GET health', `${appUrl}/api/v1/health`, `${bareUrl}/health`, {}, {}],
    ['GET bootstrap-data (guest)', `${appUrl}/api/v1/bootstrap-data`, `${bareUrl}/guest`, {}, {}],
    ['GET bootstrap-data (signed in)', `${appUrl}/api/v1/bootstrap-data`, `${bareUrl}/user`, { cookie }, {}],
    ['GET bootstrap-data (signed in, gzip)', `${appUrl}/api/v1/bootstrap-data`, `${bareUrl}/user-gzip`, { cookie, ...gzip }, gzip],
  ] as const) {
    const ref = await measure(reference, refHeaders);
    const value = await measure(ours, headers);
    rows.push([label, value, ref]);
  }

  const env = conditions();
  console.log(`\n${connections} connections, ${seconds} s each, SQLite, Node ${env.node}, ${env.cpus} CPUs, load average ${env.loadAverage.join(' ')}`);
  console.log('call'.padEnd(34), 'ours req/s'.padStart(12), 'bare req/s'.padStart(12), 'ratio'.padStart(8));
  for (const [label, value, ref] of rows) {
    console.log(label.padEnd(34), value.toFixed(0).padStart(12), ref.toFixed(0).padStart(12), (value / ref).toFixed(2).padStart(8));
  }
  const signedIn = rows.find(([label]) => label === 'GET bootstrap-data (signed in)')!;
  const signedInGzip = rows.find(([label]) => label === 'GET bootstrap-data (signed in, gzip)')!;
  const cost = await breakdown({ app, cookie, captured: {} }, '/api/v1/bootstrap-data');
  console.log(`\nin-process cost of one signed-in bootstrap-data: ${describeBreakdown(cost)}`);
  printTargets([
    {
      target: 'bootstrap-data signed in: ≥ 0.2× bare',
      measured: `${(signedIn[1] / signedIn[2]).toFixed(2)}× (with gzip ${(signedInGzip[1] / signedInGzip[2]).toFixed(2)}× of a body compressed once)`,
      met: signedIn[1] / signedIn[2] >= 0.2,
      why:
        `one process has ~${budgetMs(0.2, signedIn[2]).toFixed(2)} ms per request for 0.2×; ${describeBreakdown(cost)}.\n` +
        'What would meet it: the shared parts and their JSON are already kept per data version; what is left is per request.',
    },
  ]);
  await writeJson(
    'api',
    rows.map(([label, rps, bareRps]) => ({ label, rps, bareRps, ratio: rps / bareRps })),
  );
  await bare.close();
  await app.close();
  await fs.rm(dataDir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
