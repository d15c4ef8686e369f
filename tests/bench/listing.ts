/**
 * Listing pages and name search on a big drive (100k entries, one folder of
 * 10k) under 64 connections, beside a bare Fastify route answering the same
 * bytes, in the same run. Prints req/s, p50, p99 and the ratio. Asserts nothing.
 *
 *   npm run bench:listing      (BENCH_ENTRIES=100000, BENCH_SECONDS=5; -- --json out.json; DATABASE_URL for PostgreSQL)
 *
 * The revalidation row sends the listing's own ETag back as If-None-Match and expects 304s.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Fastify from 'fastify';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { ensureFirstAdmin } from '../../server/modules/setup/first-admin.js';
import { nowIso } from '../../server/lib/time.js';
import { randomToken } from '../../server/lib/tokens.js';
import { signIn, startServer } from './lib/server.js';
import { conditions, writeJson } from './lib/report.js';

const total = Number(process.env.BENCH_ENTRIES ?? 100_000);
const bigFolder = Math.min(10_000, total);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = 64;
const admin = { email: 'bench@example.com', password: 'bench password' };
const run = promisify(execFile);

interface Load {
  rps: number;
  p50: number;
  p99: number;
}

async function load(url: string, headers: Record<string, string>, notModified = false): Promise<Load> {
  const args = ['--json', '-c', String(connections), '-d', String(seconds), ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}=${v}`]), url];
  const { stdout } = await run(path.resolve('node_modules/.bin/autocannon'), args, { maxBuffer: 16 * 1024 * 1024 });
  const r = JSON.parse(stdout) as {
    non2xx: number;
    errors: number;
    requests: { average: number };
    latency: { p50: number; p99: number };
    statusCodeStats?: Record<string, { count: number }>;
  };
  const unexpected = notModified ? Object.entries(r.statusCodeStats ?? {}).some(([code]) => code !== '304') : r.non2xx > 0;
  if (unexpected || r.errors) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99 };
}

/** Seeds the drive straight into the database (ids, paths and names as the app makes them). */
async function seed(dataDir: string): Promise<void> {
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    WEB_DIST_DIR: path.join(dataDir, 'none'),
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
  });
  const app = await buildApp({ config, logger: false });
  await ensureFirstAdmin(app.services.db.kysely, admin);
  const db = app.services.db.kysely;
  const owner = (await db.selectFrom('users').select('id').where('email', '=', admin.email).executeTakeFirstOrThrow()).id;
  const now = nowIso();
  const words = ['report', 'invoice', 'holiday', 'photo', 'budget', 'notes', 'draft', 'final', 'scan', 'meeting'];
  await db.transaction().execute(async (trx) => {
    const folder = await trx
      .insertInto('file_entries')
      .values({
        hash: 'bigfolder',
        name: 'Big folder',
        type: 'folder',
        file_size: 0,
        owner_id: owner,
        workspace_id: null,
        parent_id: null,
        path: '',
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .updateTable('file_entries')
      .set({ path: String(folder.id) })
      .where('id', '=', folder.id)
      .execute();
    const rows = [];
    for (let i = 0; i < total - 1; i += 1) {
      const inBig = i < bigFolder;
      rows.push({
        hash: randomToken(12),
        name: `${words[i % words.length]} ${i}.pdf`,
        type: 'pdf',
        mime: 'application/pdf',
        extension: 'pdf',
        file_size: 1000 + i,
        owner_id: owner,
        workspace_id: null,
        parent_id: inBig ? folder.id : null,
        path: '',
        created_at: now,
        updated_at: new Date(Date.parse(now) - i * 1000).toISOString(),
      });
    }
    for (let i = 0; i < rows.length; i += 500) {
      const inserted = await trx
        .insertInto('file_entries')
        .values(rows.slice(i, i + 500))
        .returning(['id', 'parent_id'])
        .execute();
      for (const row of inserted) {
        await trx
          .updateTable('file_entries')
          .set({ path: row.parent_id ? `${folder.id}/${row.id}` : String(row.id) })
          .where('id', '=', row.id)
          .execute();
      }
    }
  });
  await app.close();
}

async function main() {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'drive-bench-listing-'));
  console.log(`seeding ${total} entries…`);
  await seed(dataDir);
  const app = await startServer(dataDir, admin);
  const headers = await signIn(app.url, admin);

  const folderUrl = `${app.url}/api/v1/drive/file-entries?folderId=bigfolder&perPage=50`;
  const calls = [
    ['folder of 10k, first page', folderUrl],
    ['root, first page', `${app.url}/api/v1/drive/file-entries?folderId=0&perPage=50`],
    ['name search "invoice 12"', `${app.url}/api/v1/drive/file-entries?query=invoice%2012&perPage=50`],
    ['folder of 10k, revalidated (304)', folderUrl],
  ] as const;
  const tag = (await fetch(folderUrl, { headers })).headers.get('etag');

  const bare = Fastify({ logger: false });
  const bodies: string[] = [];
  for (const [, url] of calls) bodies.push(await (await fetch(url, { headers })).text());
  bodies.forEach((body, i) => bare.get(`/${i}`, (_req, reply) => reply.type('application/json').send(body)));
  const bareUrl = await bare.listen({ host: '127.0.0.1', port: 0 });

  const env = conditions();
  console.log(
    `\n${total} entries, ${connections} connections, ${seconds} s each, ${env.database}, ${env.cpus} CPUs, load average ${env.loadAverage.join(' ')}`,
  );
  const rows = [];
  console.log('call'.padEnd(30), 'req/s'.padStart(8), 'p50 ms'.padStart(8), 'p99 ms'.padStart(8), '| bare req/s'.padStart(12), 'ratio'.padStart(7));
  const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY, 'i') : null;
  for (const [i, [label, url]] of calls.entries()) {
    if (only && !only.test(label)) continue;
    const revalidating = label.includes('304');
    const reference = await load(`${bareUrl}/${revalidating ? 0 : i}`, {});
    const ours = revalidating ? await load(url, { ...headers, 'if-none-match': tag ?? '' }, true) : await load(url, headers);
    rows.push({ label, rps: ours.rps, p50: ours.p50, p99: ours.p99, bareRps: reference.rps, ratio: ours.rps / reference.rps });
    console.log(
      label.padEnd(30),
      ours.rps.toFixed(0).padStart(8),
      String(ours.p50).padStart(8),
      String(ours.p99).padStart(8),
      `| ${reference.rps.toFixed(0)}`.padStart(12),
      (ours.rps / reference.rps).toFixed(2).padStart(7),
    );
  }
  await writeJson('listing', rows);
  await bare.close();
  await app.stop();
  if (process.env.BENCH_KEEP) console.log(`kept ${dataDir}`);
  else await fs.rm(dataDir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
