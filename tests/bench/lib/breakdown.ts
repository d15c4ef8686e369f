import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, servicesOf } from '../../../server/app.js';
import { loadConfig } from '../../../server/config.js';
import { compileSchema } from '../../../server/lib/response-serializer.js';
import type { $ZodType } from 'zod/v4/core';

/** Where one request's time goes, measured in-process (no sockets): what a "not met" line explains itself with. */
export interface Breakdown {
  /** The whole request through Fastify (`inject`), milliseconds. */
  requestMs: number;
  statements: number;
  /** Reading the statements' rows, driver included. */
  sqlMs: number;
  /** The production serializer on the handler's payload (null when the route sends ready JSON). */
  serializeMs: number | null;
  bytes: number;
}

export const describeBreakdown = (b: Breakdown) =>
  `${b.requestMs.toFixed(2)} ms a request in-process: ${b.statements} statement(s) ${b.sqlMs.toFixed(2)} ms, ` +
  `serialising ${b.bytes >> 10} KB ${b.serializeMs === null ? 'n/a' : `${b.serializeMs.toFixed(2)} ms`}, ` +
  `the rest (Fastify, sessions, XSRF, access, building the page) ${(b.requestMs - b.sqlMs - (b.serializeMs ?? 0)).toFixed(2)} ms`;

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
  const captured: { payload?: unknown; schema?: $ZodType } = {};
  app.addHook('preSerialization', async (request, _reply, payload) => {
    captured.payload = payload;
    captured.schema = (request.routeOptions.schema?.response as Record<number, $ZodType> | undefined)?.[200];
    return payload;
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
  const counter = servicesOf(app as FastifyInstance).db.counter;
  counter.log = [];
  let bytes = 0;
  const start = performance.now();
  for (let i = 0; i < rounds; i += 1) bytes = (await call()).rawPayload.length;
  const requestMs = (performance.now() - start) / rounds;
  const log = counter.log;
  counter.log = undefined;
  const sqlMs = log.reduce((sum, s) => sum + (s.ms ?? 0), 0) / rounds;

  let serializeMs: number | null = null;
  captured.payload = undefined;
  await call();
  if (captured.payload !== undefined && captured.schema) {
    const serialize = compileSchema(captured.schema)!;
    const begin = performance.now();
    for (let i = 0; i < rounds; i += 1) serialize(captured.payload);
    serializeMs = (performance.now() - begin) / rounds;
  }
  return { requestMs, statements: log.length / rounds, sqlMs, serializeMs, bytes };
}
