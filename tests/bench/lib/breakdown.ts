import { readFileSync } from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { buildApp, servicesOf } from '../../../server/app.js';
import { loadConfig } from '../../../server/config.js';
import { responseSerializerCompiler } from '../../../server/lib/response-serializer.js';
import type { $ZodType } from 'zod/v4/core';

/** Where one request's time goes, measured in-process (no sockets): what a "not met" line explains itself with. */
export interface Breakdown {
  /** The whole request through Fastify (`inject`), milliseconds. */
  requestMs: number;
  statements: number;
  /** Reading the statements' rows, driver included. */
  sqlMs: number;
  /**
   * The route's production serializer on the handler's payload, until the JSON is one flat string (null when the
   * route sends ready JSON): a string built of many pieces is flattened when Fastify measures it for
   * Content-Length, which belongs to making it.
   */
  serializeMs: number | null;
  bytes: number;
  /** `inject` itself: a bare Fastify route answering the same bytes the same way, which the rest leaves out. */
  injectMs: number;
  /** CPU time of this process's main thread a request (Linux /proc; null elsewhere): steadier than wall time on a shared machine. */
  cpuMs: number | null;
}

/** What is neither SQL, nor serialising, nor `inject`'s own work: issue 38 §3's part. */
export const restMs = (b: Breakdown) => b.requestMs - b.sqlMs - (b.serializeMs ?? 0) - b.injectMs;

export const describeBreakdown = (b: Breakdown) =>
  `${b.requestMs.toFixed(2)} ms a request in-process${b.cpuMs === null ? '' : ` (${b.cpuMs.toFixed(2)} ms CPU)`}: ${b.statements} statement(s) ${b.sqlMs.toFixed(2)} ms, ` +
  `serialising ${b.bytes >> 10} KB ${b.serializeMs === null ? 'n/a' : `${b.serializeMs.toFixed(2)} ms`}, inject's own ${b.injectMs.toFixed(2)} ms, ` +
  `the rest (Fastify, sessions, XSRF, access, building the page) ${restMs(b).toFixed(2)} ms`;

/** CPU milliseconds this process's main thread has used (utime + stime, in clock ticks of 10 ms), or null off Linux. */
export function threadCpuMs(): number | null {
  try {
    const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/**
 * The app built in this process on the bench's database (the server process
 * must have stopped for SQLite), signed in as `admin`.
 */
export async function inProcessApp(dataDir: string, admin: { email: string; password: string }) {
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    WEB_DIST_DIR: path.join(dataDir, 'none'),
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
  });
  const app = await buildApp({ config, logger: false });
  const captured: { payload?: unknown; schema?: $ZodType; route?: RouteContext } = {};
  // Callback hooks, and the route's context looked up only when asked for (hookCosts clears it): the bench's own
  // hooks run on every request in-process and would count in "the rest" (a bare route has none).
  app.addHook('preSerialization', function capturePayload(request, _reply, payload, done) {
    captured.payload = payload;
    captured.schema = (request.routeOptions.schema?.response as Record<number, $ZodType> | undefined)?.[200];
    done(null, payload);
  });
  // Fastify's per-route context (its hook arrays), so hookCosts can time each hook of a route.
  app.addHook('onSend', function captureRouteContext(request, _reply, payload, done) {
    if (captured.route === undefined) {
      const key = Object.getOwnPropertySymbols(request).find((symbol) => symbol.description === 'fastify.context');
      if (key) captured.route = (request as unknown as Record<symbol, RouteContext>)[key];
    }
    done(null, payload);
  });
  await app.ready();
  const health = await app.inject('/api/v1/health');
  const xsrf = /XSRF-TOKEN=([^;]+)/.exec(String(health.headers['set-cookie']))![1]!;
  const login = await app.inject({
    method: 'POST',
    url: '/auth/login',
    headers: { cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf },
    payload: admin,
  });
  const cookie = ([] as string[])
    .concat(login.headers['set-cookie'] as string[])
    .map((c) => c.split(';')[0])
    .join('; ');
  return { app, cookie, captured };
}

export async function breakdown(target: Awaited<ReturnType<typeof inProcessApp>>, url: string, rounds = 400, warmup = 100): Promise<Breakdown> {
  const { app, cookie, captured } = target;
  const call = () => app.inject({ method: 'GET', url, headers: { cookie } });
  for (let i = 0; i < warmup; i += 1) await call();
  // inject's own cost, from a bare route answering the same bytes, timed in blocks alternating with the app's so that
  // both see the same load on a shared machine (subtracting a figure taken at another moment can go negative).
  const bare = Fastify({ logger: false });
  const body = (await call()).body;
  bare.get('/', (_request, reply) => reply.type('application/json').send(body));
  await bare.ready();
  const bareCall = () => bare.inject({ method: 'GET', url: '/', headers: { cookie } });
  for (let i = 0; i < warmup; i += 1) await bareCall();
  const counter = servicesOf(app as FastifyInstance).db.counter;
  counter.log = [];
  let bytes = 0;
  let appMs = 0;
  let bareMs = 0;
  let cpu: number | null = 0;
  const blocks = 10;
  const perBlock = Math.ceil(rounds / blocks);
  for (let block = 0; block < blocks; block += 1) {
    const cpuStart = threadCpuMs();
    const start = performance.now();
    for (let i = 0; i < perBlock; i += 1) bytes = (await call()).rawPayload.length;
    appMs += performance.now() - start;
    const cpuEnd = threadCpuMs();
    cpu = cpu === null || cpuStart === null || cpuEnd === null ? null : cpu + cpuEnd - cpuStart;
    const bareStart = performance.now();
    for (let i = 0; i < perBlock; i += 1) await bareCall();
    bareMs += performance.now() - bareStart;
  }
  await bare.close();
  const calls = blocks * perBlock;
  const requestMs = appMs / calls;
  const injectMs = bareMs / calls;
  const log = counter.log;
  counter.log = undefined;
  const sqlMs = log.reduce((sum, s) => sum + (s.ms ?? 0), 0) / calls;
  let serializeMs: number | null = null;
  captured.payload = undefined;
  await call();
  if (captured.payload !== undefined && captured.schema) {
    const serialize = responseSerializerCompiler({ checked: false })({ schema: captured.schema, method: 'GET', url, httpStatus: '200' });
    // The median of ten blocks: one block the scheduler preempted made root's figure 1.6x the folder's for the same bytes.
    const perBlock = Math.max(1, Math.ceil(rounds / 10));
    const blockMs: number[] = [];
    for (let block = 0; block < 10; block += 1) {
      const begin = performance.now();
      for (let i = 0; i < perBlock; i += 1) Buffer.byteLength(serialize(captured.payload) as string);
      blockMs.push((performance.now() - begin) / perBlock);
    }
    serializeMs = blockMs.sort((a, b) => a - b)[5]!;
  }
  return { requestMs, statements: log.length / calls, sqlMs, serializeMs, bytes, injectMs, cpuMs: cpu === null ? null : cpu / calls };
}

type Hook = (this: unknown, ...args: unknown[]) => unknown;
const HOOK_KINDS = ['onRequest', 'preParsing', 'preValidation', 'preHandler', 'preSerialization', 'onSend', 'onResponse'] as const;
type RouteContext = Partial<Record<(typeof HOOK_KINDS)[number], Hook[] | null>> & { handler?: Hook };

/** What a hook is, for a reader: its name (Fastify binds hooks: "bound name"), or its place in the chain. */
function describeHook(fn: Hook, kind: string, index: number): string {
  const name = fn.name.replace(/^bound /, '');
  return `${kind} ${name && name !== 'anonymous' ? name : `#${index + 1} (anonymous)`}`;
}

/** Runs `fn` and calls `done` once when it has finished, by callback or by promise. */
function timed(fn: Hook, record: (ms: number) => void): Hook {
  const wrapper = function (this: unknown, ...args: unknown[]) {
    const start = performance.now();
    let finished = false;
    const finish = () => {
      if (!finished) record(performance.now() - start);
      finished = true;
    };
    const last = args.length - 1;
    const next = args[last];
    if (typeof next === 'function') {
      args[last] = (...values: unknown[]) => {
        finish();
        return (next as Hook)(...values);
      };
    }
    const result = fn.apply(this, args);
    if (result && typeof (result as Promise<unknown>).then === 'function') {
      return (result as Promise<unknown>).then(
        (value) => {
          finish();
          return value;
        },
        (error: unknown) => {
          finish();
          throw error;
        },
      );
    }
    if (typeof next !== 'function') finish();
    return result;
  };
  // Fastify tells callback hooks from async ones by their arity.
  Object.defineProperty(wrapper, 'length', { value: fn.length });
  return wrapper;
}

export interface HookCost {
  hook: string;
  us: number;
}

/**
 * Each hook of the route `url` reaches (global ones included) and its
 * handler, timed in-process from its call until it calls back or its promise
 * settles (with SQLite's synchronous driver that is its own work, the
 * statements it runs included), averaged over `rounds` requests. Issue 38
 * asks the bench to print this: where the part that is neither SQL nor
 * serialising goes.
 */
export async function hookCosts(
  target: Awaited<ReturnType<typeof inProcessApp>>,
  url: string,
  rounds = 400,
  headers: Record<string, string> = { cookie: target.cookie },
): Promise<HookCost[]> {
  const { app, captured } = target;
  const call = () => app.inject({ method: 'GET', url, headers });
  captured.route = undefined;
  await call();
  // Set by the capture hook during the call (TypeScript still sees the undefined assigned above).
  const route = captured.route as RouteContext | undefined;
  if (!route) return [];
  const totals = new Map<string, number>();
  const restore: (() => void)[] = [];
  for (const kind of HOOK_KINDS) {
    const hooks = route[kind];
    if (!hooks) continue;
    hooks.forEach((fn, i) => {
      const label = describeHook(fn, kind, i);
      hooks[i] = timed(fn, (ms) => totals.set(label, (totals.get(label) ?? 0) + ms));
      restore.push(() => (hooks[i] = fn));
    });
  }
  if (route.handler) {
    const handler = route.handler;
    route.handler = timed(handler, (ms) => totals.set('handler', (totals.get('handler') ?? 0) + ms));
    restore.push(() => (route.handler = handler));
  }
  try {
    for (let i = 0; i < 100; i += 1) await call();
    totals.clear();
    for (let i = 0; i < rounds; i += 1) await call();
  } finally {
    for (const undo of restore) undo();
  }
  return [...totals].map(([hook, ms]) => ({ hook, us: (ms * 1000) / rounds })).sort((a, b) => b.us - a.us);
}

export const describeHookCosts = (costs: HookCost[]) => costs.map((c) => `  ${c.us.toFixed(1).padStart(7)} µs  ${c.hook}`).join('\n');
