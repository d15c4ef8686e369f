import path from 'node:path';
import { z } from 'zod';
import type { PausePoint } from './lib/test-pause.js';
import { observabilityConfig, observabilityEnv, type ObservabilityConfig } from './observability/config.js';

/**
 * Environment → typed configuration. Defaults describe the embedded setup
 * (SQLite and local disk under ./data) so that `npm start` needs nothing else.
 */
const booleanString = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((value) => value === 'true' || value === '1' || value === 'yes');

const envSchema = observabilityEnv.extend({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  APP_URL: z.url({ protocol: /^https?$/ }).optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^(postgres(ql)?:\/\/|sqlite:)/, 'a postgres://… URL or sqlite:<file>')
    .optional(),
  STORAGE_DIR: z.string().min(1).optional(),
  WEB_DIST_DIR: z.string().min(1).default('./dist/web'),
  /** The app's server renderer of the public screens (issue 38.1); default: entry-server.js in ssr/ beside WEB_DIST_DIR. */
  WEB_SSR_ENTRY: z.string().min(1).optional(),
  ADMIN_EMAIL: z.email().optional(),
  ADMIN_PASSWORD: z.string().min(8, 'at least 8 characters').optional(),
  MAIL_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().min(3).optional(),
  DEMO_MODE: booleanString.default(false),
  TRUST_PROXY: booleanString.default(false),
  /** Lets web push go to http://localhost (a local push service in tests); never set in production. */
  PUSH_ALLOW_LOOPBACK: booleanString.default(false),
  /** Tests only: stops every request that reaches this point, so a test can kill the process there. */
  TEST_PAUSE_AT: z.enum(['entry-commit']).optional(),
  /** Stripe secret key (sk_test_… or sk_live_…); the `billing.stripe.secret_key` setting wins when set. */
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  /** The signing secret of the Stripe webhook endpoint (whsec_…); the `billing.stripe.webhook_secret` setting wins when set. */
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  /** Another Stripe API address (tests: a local Stripe double); default https://api.stripe.com. */
  STRIPE_API_BASE: z.url({ protocol: /^https?$/ }).optional(),
  /** Scale-out: Redis for rate limits, tus locks, live events, broadcasts and the job queue. Unset, all of these stay in-process. */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'a redis:// or rediss:// URL')
    .optional(),
  /** Namespaces every Redis key and channel, so several sites (or test runs) can share one Redis. */
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'letters, digits and _ . : - (at most 64)')
    .default('drive:'),
  /** How many server processes `npm start` runs on this machine (node:cluster). */
  WORKERS: z.coerce.number().int().min(1).max(256).default(1),
  /** Where file bytes, thumbnails and avatars live: this machine's disk, or an S3-compatible bucket. */
  STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
  S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'an S3 bucket name')
    .optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: booleanString.default(false),
  /** Browsers upload straight to the bucket through presigned URLs (spec §7, §9); off: through the app. */
  S3_DIRECT_UPLOAD: booleanString.default(true),
  /** Downloads streamed through the app, or redirected to a short-lived presigned GET. */
  S3_DOWNLOADS: z.enum(['stream', 'redirect']).default('stream'),
  /** Lifetime of presigned URLs in seconds. */
  S3_URL_EXPIRES: z.coerce.number().int().min(1).max(604800).default(900),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BODY_LIMIT: z.coerce
    .number()
    .int()
    .positive()
    .default(1024 * 1024),
});

export type Env = z.input<typeof envSchema>;

export interface Config {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  appUrl: string;
  dataDir: string;
  database: { dialect: 'sqlite'; file: string } | { dialect: 'postgres'; url: string };
  storageDir: string;
  webDistDir: string;
  /** The built renderer of the public screens; absent, those pages are the static shell. */
  webSsrEntry: string;
  admin: { email: string | undefined; password: string | undefined };
  /** SMTP when MAIL_URL is set; otherwise messages are written as .eml files to DATA_DIR/mail. */
  mail: { url: string | undefined; from: string; dir: string };
  /** Creates the demo accounts at start-up and turns on site.demo. */
  demoMode: boolean;
  trustProxy: boolean;
  pushAllowLoopback: boolean;
  /** Tests only (TEST_PAUSE_AT): where requests stop for good, to kill the process at a known point. */
  testPauseAt: PausePoint | null;
  /** Stripe from the environment; settings may supply the keys instead. */
  stripe: { secretKey: string | undefined; webhookSecret: string | undefined; apiBase: string | undefined };
  /** Where bytes live; S3 only when STORAGE_DRIVER=s3. */
  storage: StorageConfig;
  logLevel: string;
  bodyLimit: number;
  /** Set in scale-out mode (REDIS_URL); null is the embedded, one-process default. */
  redis: { url: string; prefix: string } | null;
  /** Processes on this machine; above 1 needs Redis and PostgreSQL (checked here, see loadConfig). */
  workers: number;
  /** Metrics, error reporting and traces (server/observability/config.ts). */
  observability: ObservabilityConfig;
}

export type StorageConfig =
  | { driver: 'local' }
  | {
      driver: 's3';
      s3: {
        endpoint: string | undefined;
        region: string;
        bucket: string;
        accessKeyId: string | undefined;
        secretAccessKey: string | undefined;
        forcePathStyle: boolean;
      };
      directUpload: boolean;
      downloads: 'stream' | 'redirect';
      urlExpiresSeconds: number;
    };

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Empty variables count as unset: `PORT= npm start` should not fail on "".
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const name = issue.path.join('.');
        return `${name}=${JSON.stringify(present[name] ?? '')}: ${issue.message}`;
      }),
    );
  }
  const e = parsed.data;
  const scaleProblems = workerProblems(e.WORKERS, e.REDIS_URL, e.DATABASE_URL);
  if (scaleProblems.length) throw new ConfigError(scaleProblems);
  if (e.STORAGE_DRIVER === 's3' && !e.S3_BUCKET) throw new ConfigError(['S3_BUCKET="": required when STORAGE_DRIVER=s3']);
  const dataDir = path.resolve(e.DATA_DIR);
  const database: Config['database'] =
    e.DATABASE_URL && /^postgres/.test(e.DATABASE_URL)
      ? { dialect: 'postgres', url: e.DATABASE_URL }
      : {
          dialect: 'sqlite',
          file: e.DATABASE_URL ? resolveSqlitePath(e.DATABASE_URL.slice('sqlite:'.length), dataDir) : path.join(dataDir, 'drive.sqlite'),
        };
  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    appUrl: (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    dataDir,
    database,
    storageDir: path.resolve(e.STORAGE_DIR ?? path.join(dataDir, 'storage')),
    webDistDir: path.resolve(e.WEB_DIST_DIR),
    webSsrEntry: path.resolve(e.WEB_SSR_ENTRY ?? path.join(e.WEB_DIST_DIR, '..', 'ssr', 'entry-server.js')),
    admin: { email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD },
    mail: { url: e.MAIL_URL, from: e.MAIL_FROM ?? 'Drive <no-reply@localhost>', dir: path.join(dataDir, 'mail') },
    demoMode: e.DEMO_MODE,
    trustProxy: e.TRUST_PROXY,
    pushAllowLoopback: e.PUSH_ALLOW_LOOPBACK,
    testPauseAt: e.TEST_PAUSE_AT ?? null,
    stripe: { secretKey: e.STRIPE_SECRET_KEY, webhookSecret: e.STRIPE_WEBHOOK_SECRET, apiBase: e.STRIPE_API_BASE },
    storage:
      e.STORAGE_DRIVER === 's3'
        ? {
            driver: 's3',
            s3: {
              endpoint: e.S3_ENDPOINT,
              region: e.S3_REGION,
              bucket: e.S3_BUCKET!,
              accessKeyId: e.S3_ACCESS_KEY_ID,
              secretAccessKey: e.S3_SECRET_ACCESS_KEY,
              forcePathStyle: e.S3_FORCE_PATH_STYLE,
            },
            directUpload: e.S3_DIRECT_UPLOAD,
            downloads: e.S3_DOWNLOADS,
            urlExpiresSeconds: e.S3_URL_EXPIRES,
          }
        : { driver: 'local' },
    logLevel: e.LOG_LEVEL,
    bodyLimit: e.BODY_LIMIT,
    redis: e.REDIS_URL ? { url: e.REDIS_URL, prefix: e.REDIS_PREFIX } : null,
    workers: e.WORKERS,
    observability: observabilityConfig(e, e.NODE_ENV),
  };
}

/**
 * Several processes share nothing in memory, so they need Redis for what
 * must be shared (rate limits, tus locks, live events, jobs). SQLite is
 * refused: its WAL lets processes on one machine read together, but Kysely
 * opens deferred transactions, and a read-then-write one (a quota
 * reservation) fails at once with SQLITE_BUSY_SNAPSHOT when another process
 * wrote meanwhile instead of waiting, so uploads would fail under load; and
 * one writer at a time gains nothing from more processes.
 */
function workerProblems(workers: number, redisUrl: string | undefined, databaseUrl: string | undefined): string[] {
  if (workers <= 1) return [];
  const problems: string[] = [];
  if (!redisUrl) problems.push(`WORKERS=${workers}: several processes need REDIS_URL (rate limits, upload locks, live events and jobs are shared there)`);
  if (!databaseUrl || !/^postgres/.test(databaseUrl))
    problems.push(`WORKERS=${workers}: several processes need PostgreSQL (DATABASE_URL=postgres://…); SQLite serves one process`);
  return problems;
}

function resolveSqlitePath(file: string, dataDir: string): string {
  if (file === ':memory:') return file;
  return path.isAbsolute(file) ? file : path.resolve(dataDir, file);
}
