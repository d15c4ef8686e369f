import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';

export const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });

export interface RunningServer {
  url: string;
  process: ChildProcess;
  /** Resident memory now and its peak since start, in bytes (Linux /proc). */
  memory(): Promise<{ rss: number; peak: number }>;
  stop(): Promise<void>;
}

const BUILD_DIR = '.bench-build';
let built: Promise<string> | null = null;

/**
 * The server as production runs it (`npm run serve`: tsc's output on plain Node), compiled once per bench run
 * into .bench-build/ (not dist/, which `npm start` or an e2e run may be using). Through tsx, esbuild keeps
 * function names by wrapping every closure made at run time in a `__name` call, which production does not pay:
 * several µs a request more on the side with more closures (tracing's, in the observability bench).
 * BENCH_SERVER=tsx runs the sources instead (no build; a profile then names the .ts files).
 */
function serverEntry(main = process.env.BENCH_SERVER_MAIN): Promise<string[]> {
  if (process.env.BENCH_SERVER === 'tsx') return Promise.resolve(['--import', 'tsx', 'server/main.ts']);
  // BENCH_SERVER_MAIN=path (in the bench's environment, or one server's `env`) runs a build made earlier (say of the
  // commit an A/B compares against) instead of building.
  if (main) return Promise.resolve([path.resolve(main)]);
  built ??= new Promise<string>((resolve, reject) => {
    const tsc = spawn(process.execPath, [path.resolve('node_modules/typescript/bin/tsc'), '-p', 'server/tsconfig.build.json', '--outDir', BUILD_DIR], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    tsc.once('exit', (code) =>
      code === 0 ? resolve(path.join(BUILD_DIR, 'server', 'main.js')) : reject(new Error(`tsc exited with ${code} building the server`)),
    );
  });
  return built.then((main) => [main]);
}

/** The app as its own process (as in production), on SQLite in `dataDir`; `env` adds to or overrides its environment. */
export async function startServer(
  dataDir: string,
  admin: { email: string; password: string },
  webDistDir?: string,
  env: Record<string, string> = {},
): Promise<RunningServer> {
  const port = await freePort();
  // BENCH_CPU_PROF=dir writes a V8 CPU profile of the app process there when it stops (open it in Chrome's DevTools).
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}`] : [];
  // BENCH_NODE_ARGS (in `env` for one server, or the bench's environment for all): V8 flags such as
  // --trace-deopt or --perf-basic-prof that NODE_OPTIONS does not accept.
  const nodeArgs = (env.BENCH_NODE_ARGS ?? process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...profile, ...nodeArgs, ...(await serverEntry(env.BENCH_SERVER_MAIN))], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      WEB_DIST_DIR: webDistDir ?? path.join(dataDir, 'none'),
      ...env,
    },
    stdio: ['ignore', process.env.BENCH_SERVER_STDOUT ? 'inherit' : 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  // Until it answers or exits: starting takes a while on a busy machine (with BENCH_SERVER=tsx, compiling too).
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode} before it answered`);
    if (Date.now() > deadline) throw new Error('the server did not answer within 180 s');
    try {
      if ((await fetch(`${url}/api/v1/health`)).ok) break;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    process: child,
    async memory() {
      const status = await fs.readFile(`/proc/${child.pid}/status`, 'utf8');
      const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) * 1024;
      return { rss: kb('VmRSS'), peak: kb('VmHWM') };
    },
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

/** Signs in like a browser: the headers every later call needs. */
export async function signIn(url: string, admin: { email: string; password: string }): Promise<Record<string, string>> {
  const first = await fetch(`${url}/api/v1/health`);
  const xsrf = /XSRF-TOKEN=([^;]+)/.exec(first.headers.get('set-cookie') ?? '')![1]!;
  const login = await fetch(`${url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf },
    body: JSON.stringify(admin),
  });
  const session = /drive_session=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')![1]!;
  // Signing in binds a new XSRF token to the session; the guest one no longer passes.
  const bound = /XSRF-TOKEN=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')?.[1] ?? xsrf;
  return { cookie: `XSRF-TOKEN=${bound}; drive_session=${session}`, 'x-xsrf-token': decodeURIComponent(bound) };
}

/**
 * What a WebDAV client sends as its `authorization`: Basic with the person's
 * email and a new read/write access token (as a desktop client is set up).
 */
export async function davAuthorization(url: string, session: Record<string, string>, email: string): Promise<string> {
  const created = await fetch(`${url}/api/v1/access-tokens`, {
    method: 'POST',
    headers: { ...session, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench', scopes: ['read', 'write'] }),
  });
  const token = ((await created.json()) as { plainTextToken: string }).plainTextToken;
  return `Basic ${Buffer.from(`${email}:${token}`).toString('base64')}`;
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** A file of `bytes` pseudo-random bytes (random data defeats any compression along the way). */
export async function makeFile(file: string, bytes: number): Promise<void> {
  const { randomBytes } = await import('node:crypto');
  const block = randomBytes(1024 * 1024);
  const handle = await fs.open(file, 'w');
  try {
    for (let written = 0; written < bytes; written += block.length) await handle.write(block, 0, Math.min(block.length, bytes - written));
  } finally {
    await handle.close();
  }
}
