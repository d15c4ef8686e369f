import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../../server/app.js';
import { loadConfig, type Config } from '../../../server/config.js';
import { startS3Peer, type S3Peer } from '../../peers/s3-peer.js';

export const DIALECT = (process.env.TEST_DIALECT ?? 'sqlite') as 'sqlite' | 'postgres';
const PG_ADMIN_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The disks the storage tests run on (describe.each over these): this machine's, and the S3 peer. */
export const DISKS = ['local', 's3'] as const;
export type TestDisk = (typeof DISKS)[number];

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  dataDir: string;
  /** The S3 peer the app's disk is on (disk: 's3'), else null. */
  s3: S3Peer | null;
  close(): Promise<void>;
}

/**
 * A real app on a real, fresh database of the suite's dialect: SQLite in a
 * temp dir, or a new PostgreSQL database dropped afterwards. Nothing is mocked.
 */
export async function createTestApp(
  options: {
    env?: Record<string, string>;
    beforeReady?: (app: FastifyInstance) => void | Promise<void>;
    /** Capture the app's log lines (JSON) at this level. */
    log?: { level: string; lines: string[] };
    /** 's3': file bytes, thumbnails and avatars go to a fresh S3 peer on 127.0.0.1. */
    disk?: TestDisk;
  } = {},
): Promise<TestApp> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'drive-test-'));
  const s3 = options.disk === 's3' ? await startS3Peer() : null;
  const env: Record<string, string> = {
    ...s3?.env,
    DATA_DIR: dataDir,
    WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
    ...options.env,
  };
  const database = await prepareDatabase();
  Object.assign(env, database.env);
  const config = loadConfig(env);
  const logger = options.log ? { level: options.log.level, stream: { write: (line: string) => void options.log!.lines.push(line) } } : false;
  const app = await buildApp({ config, logger });
  await options.beforeReady?.(app);
  await app.ready();
  return {
    app,
    config,
    dataDir,
    s3,
    async close() {
      await app.close();
      await s3?.close();
      await database.drop?.();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A fresh database of the suite's dialect: env for the server, and how to drop it afterwards. */
export async function prepareDatabase(): Promise<{ env: Record<string, string>; drop: (() => Promise<void>) | null }> {
  if (DIALECT !== 'postgres') return { env: {}, drop: null };
  const name = `drive_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  await withAdminClient(async (client) => {
    await client.query(`create database ${name}`);
    // A throwaway database need not wait for each commit to reach the disk: commits stay atomic and
    // visible to every connection at once (a killed app process loses nothing), only an operating
    // system crash could lose the last few, and the suite spends much of its time on one commit per insert.
    await client.query(`alter database ${name} set synchronous_commit = off`);
  });
  return {
    env: { DATABASE_URL: PG_ADMIN_URL.replace(/\/[^/]*$/, `/${name}`) },
    drop: async () => {
      // Wait for the app's pool to finish closing rather than killing its connections mid-goodbye.
      for (let attempt = 0; attempt < 50; attempt += 1) {
        try {
          await withAdminClient((client) => client.query(`drop database if exists ${name}`));
          return;
        } catch (error) {
          if ((error as { code?: string }).code !== '55006') throw error;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
      await withAdminClient((client) => client.query(`drop database if exists ${name} with (force)`));
    },
  };
}

async function withAdminClient<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
