/**
 * Issue 37's many small PUTs, two builds of the app side by side: on shared cores
 * one run's CPU time a PUT moves ±30% from run to run (the host's load, the
 * filesystem's own background work), so two builds run one after the other
 * cannot be told apart by ~10%. Here both servers run at once and take the PUTs
 * in alternating slices (the same files, into folders equally full), and each
 * slice's CPU time a PUT (the server's process, all threads) is paired with the
 * other build's adjacent slice.
 *
 *   BENCH_AB_BASE=path/to/other/build/server/main.js npx tsx tests/bench/webdav-ab.ts
 *
 * BENCH_AB_BASE is a build made with `tsc -p server/tsconfig.build.json` (say in a
 * worktree of the commit to compare against); the other side is this checkout,
 * built as the other benches build it. BENCH_AB_SLICES (default 16) slices of
 * BENCH_AB_SLICE PUTs (default 500), 8 in flight. It prints each pair and the
 * median of the pairs' ratios; it asserts nothing. BENCH_AB_KEEP=1 keeps the data folders;
 * BENCH_DROP_CACHES=1 drops the kernel's caches first (lib/caches.ts).
 */
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { dropCachesIfAsked } from './lib/caches.js';
import { treeCpuMs } from './lib/cpu.js';
import { davAuthorization, median, signIn, startServer, type RunningServer } from './lib/server.js';

const SLICES = Number(process.env.BENCH_AB_SLICES ?? 16);
const SLICE = Number(process.env.BENCH_AB_SLICE ?? 500);
const IN_FLIGHT = 8;
const BODY = Buffer.alloc(1024, 'x');

/** CPU time (ms) so far of a process's main thread (its event loop), whose id is the process's own. */
async function mainThreadMs(pid: number): Promise<number> {
  const fields = (await fs.readFile(`/proc/${pid}/task/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

interface Side {
  name: string;
  server: RunningServer;
  base: string;
  authorization: string;
  agent: http.Agent;
  cpuPerPut: number[];
  /** The event loop's share: what bounds the rate while other threads (checkpoints, writes) have cores to spare. */
  mainPerPut: number[];
  perSecond: number[];
}

function put(side: Side, name: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${side.base}/${name}`,
      { method: 'PUT', agent: side.agent, headers: { authorization: side.authorization, 'content-length': String(BODY.length) } },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode!));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(BODY);
  });
}

async function mkcol(side: Side, name: string): Promise<void> {
  const status = await new Promise<number>((resolve, reject) => {
    const request = http.request(`${side.base}/${name}`, { method: 'MKCOL', agent: side.agent, headers: { authorization: side.authorization } }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode!));
    });
    request.on('error', reject);
    request.end();
  });
  if (status !== 201) throw new Error(`${side.name} MKCOL answered ${status}`);
}

async function slice(side: Side, from: number): Promise<void> {
  let next = from;
  const cpuBefore = await treeCpuMs(side.server.process.pid!);
  const mainBefore = await mainThreadMs(side.server.process.pid!);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < from + SLICE) {
        const i = next++;
        const status = await put(side, `ab/file-${String(i).padStart(6, '0')}.bin`);
        if (status !== 201) throw new Error(`${side.name} PUT answered ${status}`);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  side.cpuPerPut.push((((await treeCpuMs(side.server.process.pid!)) - cpuBefore) / SLICE) * 1000);
  side.mainPerPut.push((((await mainThreadMs(side.server.process.pid!)) - mainBefore) / SLICE) * 1000);
  side.perSecond.push(SLICE / seconds);
}

async function open(name: string, dir: string, env: Record<string, string>): Promise<Side> {
  const admin = { email: 'bench@example.com', password: 'bench password 123' };
  const server = await startServer(dir, admin, undefined, env);
  const side: Side = {
    name,
    server,
    base: `${server.url}/dav/My%20drive`,
    authorization: await davAuthorization(server.url, await signIn(server.url, admin), admin.email),
    agent: new http.Agent({ keepAlive: true, maxSockets: 16 }),
    cpuPerPut: [],
    mainPerPut: [],
    perSecond: [],
  };
  await mkcol(side, 'ab');
  return side;
}

async function main() {
  dropCachesIfAsked();
  const basePath = process.env.BENCH_AB_BASE;
  if (!basePath) throw new Error("BENCH_AB_BASE must name the other build's server/main.js");
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-webdav-ab-'));
  // The base first: startServer builds this checkout (it compiles once per run) only for the second.
  const base = await open('base', path.join(dir, 'base'), { BENCH_SERVER_MAIN: path.resolve(basePath) });
  const current = await open('this', path.join(dir, 'this'), {});
  try {
    console.log(
      `load average ${os
        .loadavg()
        .map((n) => n.toFixed(1))
        .join(' ')} on ${os.cpus().length} cores; ${SLICES} slices of ${SLICE} PUTs each\n`,
    );
    // A warm-up slice each (V8 optimises the hot path), not counted.
    await slice(base, 0);
    await slice(current, 0);
    for (const side of [base, current]) side.cpuPerPut.length = side.mainPerPut.length = side.perSecond.length = 0;
    const ratios: number[] = [];
    const mainRatios: number[] = [];
    for (let i = 1; i <= SLICES; i += 1) {
      // Which side goes first alternates, so neither always follows the other's after-work.
      const order = i % 2 ? [base, current] : [current, base];
      for (const side of order) await slice(side, i * SLICE);
      const ratio = current.cpuPerPut.at(-1)! / base.cpuPerPut.at(-1)!;
      ratios.push(ratio);
      mainRatios.push(current.mainPerPut.at(-1)! / base.mainPerPut.at(-1)!);
      const show = (side: Side) =>
        `${side.cpuPerPut.at(-1)!.toFixed(0).padStart(5)} µs (loop ${side.mainPerPut.at(-1)!.toFixed(0).padStart(4)}) ${side.perSecond.at(-1)!.toFixed(0).padStart(5)}/s`;
      console.log(`slice ${String(i).padStart(2)}  base ${show(base)}   this ${show(current)}   ${ratio.toFixed(2)} (loop ${mainRatios.at(-1)!.toFixed(2)})`);
    }
    const total = (values: number[]) => values.reduce((sum, value) => sum + value, 0);
    console.log(
      `\nCPU a PUT: base ${median(base.cpuPerPut).toFixed(0)} µs, this ${median(current.cpuPerPut).toFixed(0)} µs (medians); paired median ratio ${median(ratios).toFixed(3)}, over all ${(total(current.cpuPerPut) / total(base.cpuPerPut)).toFixed(3)}`,
    );
    console.log(
      `event loop's CPU a PUT: base ${median(base.mainPerPut).toFixed(0)} µs, this ${median(current.mainPerPut).toFixed(0)} µs (medians); paired median ratio ${median(mainRatios).toFixed(3)}, over all ${(total(current.mainPerPut) / total(base.mainPerPut)).toFixed(3)}`,
    );
    console.log(`PUTs a second: base ${median(base.perSecond).toFixed(0)}, this ${median(current.perSecond).toFixed(0)} (medians)`);
  } finally {
    await base.server.stop();
    await current.server.stop();
    // BENCH_AB_KEEP=1 keeps both data folders (to look into their databases afterwards).
    if (process.env.BENCH_AB_KEEP) console.log(`kept ${dir}`);
    else await fs.rm(dir, { recursive: true, force: true });
  }
}

await main();
