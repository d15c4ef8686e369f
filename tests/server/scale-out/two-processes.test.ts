import { execFileSync, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Peer, type S3Peer } from '../../peers/s3-peer.js';
import { mailsTo } from '../support/mail.js';
import { ServerProcess, type Session } from '../support/server-process.js';
import { tusMetadata } from '../uploads/support.js';
import { dropPrefix, randomPrefix, REDIS_URL, redisReachable, redisSkipMessage } from './redis-support.js';

const PG_ADMIN_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

const redisUp = await redisReachable();
const postgresUp = await postgresReachable();
if (!redisUp) console.warn(redisSkipMessage);
if (!postgresUp) console.warn(`PostgreSQL is not reachable at ${PG_ADMIN_URL}: the two-process scale-out test is skipped (set TEST_PG_URL).`);
// Each vitest project runs this file; they may run at the same time, so each takes its own ports (8400-8420).
const PORTS = process.env.TEST_DIALECT === 'postgres' ? [8403, 8404, 8405] : [8406, 8407, 8408];

const json = (session: Session) => ({ ...session, 'content-type': 'application/json' });

/** Reads server-sent events from a stream until `until` holds for one, or times out. */
async function readEvents(body: ReadableStream<Uint8Array>, until: (event: { unreadCount: number }) => boolean, timeoutMs = 10_000) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const seen: { unreadCount: number }[] = [];
  let buffer = '';
  const deadline = Date.now() + timeoutMs;
  try {
    while (Date.now() < deadline) {
      const chunk = await Promise.race([reader.read(), new Promise<null>((resolve) => setTimeout(() => resolve(null), deadline - Date.now()))]);
      if (!chunk || chunk.done) break;
      buffer += decoder.decode(chunk.value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const data = /^data: (.*)$/m.exec(buffer.slice(0, end))?.[1];
        buffer = buffer.slice(end + 2);
        if (!data) continue;
        const event = JSON.parse(data) as { unreadCount: number };
        seen.push(event);
        if (until(event)) return seen;
      }
    }
    return seen;
  } finally {
    reader.releaseLock();
  }
}

/**
 * Two real server processes (server/main.ts) on different ports share one
 * PostgreSQL database, one Redis (a prefix of this test's own), one S3 peer
 * and one staging folder, as two machines behind a load balancer would: what one
 * process starts, counts or announces, the other continues, honours or hears.
 */
describe.skipIf(!redisUp || !postgresUp)('two app processes sharing PostgreSQL, Redis and S3', () => {
  const admin = { email: 'scale@example.com', password: 'scale test password' };
  const prefix = randomPrefix();
  const database = `drive_scale_${process.pid}_${randomBytes(4).toString('hex')}`;
  let dataDir: string;
  let a: ServerProcess;
  let b: ServerProcess;
  let adminA: Session;
  let s3: S3Peer;

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'drive-scale-'));
    await adminQuery(`create database ${database}`);
    // File bytes in the S3 peer, as on several machines; only tus uploads in flight are staged in the shared folder.
    s3 = await startS3Peer();
    const env = { DATABASE_URL: PG_ADMIN_URL.replace(/\/[^/]*$/, `/${database}`), REDIS_URL, REDIS_PREFIX: prefix, ...s3.env };
    a = new ServerProcess(dataDir, env, PORTS[0]!, admin);
    b = new ServerProcess(dataDir, env, PORTS[1]!, admin);
    await a.start();
    await b.start();
    adminA = await a.session();
  }, 120_000);

  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await adminQuery(`drop database if exists ${database} with (force)`).catch(() => undefined);
    await dropPrefix(prefix);
    await s3?.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }, 60_000);

  /** A user made through the admin API on process A. */
  async function createAccount(email: string, password: string) {
    const created = await fetch(a.url('/api/v1/admin/users'), {
      method: 'POST',
      headers: json(adminA),
      body: JSON.stringify({ email, password, first_name: 'Scale' }),
    });
    expect(created.status, await created.clone().text()).toBe(200);
    return { email, password };
  }

  it('resumes on B a tus upload A is still receiving: B takes the upload lock from A, then finishes the file', async () => {
    const content = randomBytes(2 * 1024 * 1024);
    const headersB = await b.session();
    const created = await fetch(a.url('/api/v1/tus/upload'), {
      method: 'POST',
      headers: { ...adminA, 'upload-length': String(content.length), 'upload-metadata': tusMetadata({ name: 'moved.bin', parentId: '0' }) },
    });
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    const id = location.split('/').pop()!;

    // A receives the first half and the request stays open, as over a slow network that then moves to B.
    const half = 1024 * 1024;
    let endedOnA = false;
    const onA = http.request(a.url(location), {
      method: 'PATCH',
      headers: { ...adminA, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream', 'content-length': String(content.length) },
    });
    onA.on('response', (response) => {
      endedOnA = true;
      response.resume();
    });
    onA.on('error', () => {
      endedOnA = true;
    });
    onA.write(content.subarray(0, half));
    const stored = path.join(dataDir, 'storage', 'tus', id);
    for (let i = 0; i < 200 && (await fs.stat(stored).catch(() => ({ size: 0 }))).size < half; i += 1) await new Promise((resolve) => setTimeout(resolve, 25));

    // B's HEAD needs the upload's lock, which A holds: A is asked (through Redis) to let go and ends its PATCH.
    const head = await fetch(b.url(location), { method: 'HEAD', headers: headersB });
    expect(head.status).toBe(200);
    const offset = Number(head.headers.get('upload-offset'));
    expect(offset).toBe(half);
    for (let i = 0; i < 100 && !endedOnA; i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(endedOnA).toBe(true);
    onA.destroy();

    const rest = await fetch(b.url(location), {
      method: 'PATCH',
      headers: { ...headersB, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
      body: content.subarray(offset),
    });
    expect(rest.status).toBe(204);
    const done = await fetch(b.url('/api/v1/tus/entries'), { method: 'POST', headers: json(headersB), body: JSON.stringify({ uploadKey: id }) });
    expect(done.status, await done.clone().text()).toBe(200);
    const { fileEntry } = (await done.json()) as { fileEntry: { hash: string; file_size: number } };
    expect(fileEntry.file_size).toBe(content.length);
    // And A serves what B finished, byte for byte.
    const download = await fetch(a.url(`/api/v1/file-entries/download?hashes=${fileEntry.hash}`), { headers: adminA });
    expect(download.status).toBe(200);
    const bytes = Buffer.from(await download.arrayBuffer());
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(createHash('sha256').update(content).digest('hex'));
    // The bytes live in the bucket, not on either process's disk.
    const inBucket = await fs.readdir(path.join(s3.directory, s3.bucket, 'drive'), { recursive: true });
    expect(inBucket.length).toBeGreaterThan(0);
    expect(await fs.readdir(path.join(dataDir, 'storage', 'drive')).catch(() => [])).toEqual([]);
  });

  it('throttles on B a sign-in that failed too often on A', async () => {
    const account = await createAccount('throttled@example.com', 'the right password');
    const guest = await fetch(a.url('/api/v1/health'));
    const xsrf = /XSRF-TOKEN=([^;]+)/.exec(guest.headers.get('set-cookie') ?? '')![1]!;
    const headers = { 'content-type': 'application/json', cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf };
    for (let i = 0; i < 5; i += 1) {
      const wrong = await fetch(a.url('/auth/login'), { method: 'POST', headers, body: JSON.stringify({ email: account.email, password: 'wrong' }) });
      expect(wrong.status).toBe(422);
    }
    const onB = await fetch(b.url('/auth/login'), { method: 'POST', headers, body: JSON.stringify(account) });
    expect(onB.status).toBe(429);
    expect(Number(onB.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('delivers a notification made through A to the live stream open on B, and its mail from whichever process sends it', async () => {
    const recipient = await createAccount('bell@example.com', 'bell password ok');
    const sessionB = await b.session(recipient);
    const stream = await fetch(b.url('/api/v1/notifications/stream'), { headers: sessionB });
    expect(stream.status).toBe(200);
    const body = stream.body!;
    expect(await readEvents(body, () => true)).toEqual([{ unreadCount: 0 }]);

    const folder = await fetch(a.url('/api/v1/folders'), {
      method: 'POST',
      headers: json(adminA),
      body: JSON.stringify({ name: 'Shared plans', parentId: null }),
    });
    const hash = ((await folder.json()) as { folder: { hash: string } }).folder.hash;
    const shared = await fetch(a.url('/api/v1/file-entries/shares'), {
      method: 'POST',
      headers: json(adminA),
      body: JSON.stringify({ entryIds: [hash], emails: [recipient.email], permission: 'view' }),
    });
    expect(shared.status, await shared.clone().text()).toBe(200);
    expect(await readEvents(body, (event) => event.unreadCount === 1)).toContainEqual({ unreadCount: 1 });
    await body.cancel();

    let mails: Awaited<ReturnType<typeof mailsTo>> = [];
    for (let i = 0; i < 100 && !mails.length; i += 1) {
      mails = await mailsTo(dataDir, recipient.email).catch(() => []);
      if (!mails.length) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(mails).toHaveLength(1);
  });

  it('retires on B what a write through A made stale: a listing tag, then the session of a user A suspends', async () => {
    const account = await createAccount('stale@example.com', 'stale caches password');
    const sessionA = await a.session(account);
    const sessionB = await b.session(account);
    const listing = b.url('/api/v1/drive/file-entries?folderId=0&perPage=50');
    /** Asks B until `done` holds for its answer: the news travels over Redis pub/sub, so not in the same instant. */
    async function untilB(headers: Record<string, string>, done: (res: Response) => boolean): Promise<Response> {
      const deadline = Date.now() + 5_000;
      for (;;) {
        const res = await fetch(listing, { headers });
        if (done(res) || Date.now() > deadline) return res;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    const first = await fetch(listing, { headers: sessionB });
    expect(first.status).toBe(200);
    const tag = first.headers.get('etag')!;
    // B holds the session, the user's permissions and the listing's version in memory now.
    expect((await fetch(listing, { headers: { ...sessionB, 'if-none-match': tag } })).status).toBe(304);

    const made = await fetch(a.url('/api/v1/folders'), {
      method: 'POST',
      headers: json(sessionA),
      body: JSON.stringify({ name: 'Made on A', parentId: null }),
    });
    expect(made.status, await made.clone().text()).toBe(200);
    const fresh = await untilB({ ...sessionB, 'if-none-match': tag }, (res) => res.status !== 304);
    expect(fresh.status).toBe(200);
    expect(JSON.stringify(await fresh.json())).toContain('Made on A');

    const bootstrap = (await (await fetch(b.url('/api/v1/bootstrap-data'), { headers: sessionB })).json()) as { data: { user: { id: number } } };
    const suspended = await fetch(a.url('/api/v1/admin/users/bulk-update'), {
      method: 'POST',
      headers: json(adminA),
      body: JSON.stringify({ ids: [bootstrap.data.user.id], action: 'suspend' }),
    });
    expect(suspended.status, await suspended.clone().text()).toBe(200);
    expect((await untilB(sessionB, (res) => res.status === 401)).status).toBe(401);
  });

  it('stops on B a WebDAV token revoked through A, though B remembered it', async () => {
    const account = await createAccount('revoked@example.com', 'revoked token password');
    const sessionA = await a.session(account);
    const created = await fetch(a.url('/api/v1/access-tokens'), {
      method: 'POST',
      headers: json(sessionA),
      body: JSON.stringify({ name: 'webdav', scopes: ['read', 'write'] }),
    });
    expect(created.status).toBe(200);
    const { token, plainTextToken } = (await created.json()) as { token: { id: number }; plainTextToken: string };
    const dav = { authorization: `Basic ${Buffer.from(`revoked@example.com:${plainTextToken}`).toString('base64')}`, depth: '0' };
    const propfind = () => fetch(b.url('/dav/'), { method: 'PROPFIND', headers: dav });
    // B holds the verified token in memory now.
    expect((await propfind()).status).toBe(207);
    expect((await propfind()).status).toBe(207);
    expect((await fetch(a.url(`/api/v1/access-tokens/${token.id}`), { method: 'DELETE', headers: sessionA })).status).toBe(200);
    // The news travels over Redis pub/sub, so not in the same instant (as for the suspended session above).
    const deadline = Date.now() + 5_000;
    let status = (await propfind()).status;
    while (status !== 401 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = (await propfind()).status;
    }
    expect(status).toBe(401);
  });

  it('holds a share link’s password limit under 50 concurrent guesses split across both processes', async () => {
    const folder = await fetch(a.url('/api/v1/folders'), { method: 'POST', headers: json(adminA), body: JSON.stringify({ name: 'Locked', parentId: null }) });
    const hash = ((await folder.json()) as { folder: { hash: string } }).folder.hash;
    const made = await fetch(a.url(`/api/v1/file-entries/${hash}/share-links`), {
      method: 'POST',
      headers: json(adminA),
      body: JSON.stringify({ password: 'open sesame' }),
    });
    expect(made.status).toBe(200);
    const { token } = ((await made.json()) as { link: { token: string } }).link;
    const guest = await fetch(b.url('/api/v1/health'));
    const xsrf = /XSRF-TOKEN=([^;]+)/.exec(guest.headers.get('set-cookie') ?? '')![1]!;
    const headers = { 'content-type': 'application/json', cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf };
    const statuses = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const server = i % 2 ? b : a;
        return (await fetch(server.url(`/api/v1/shared-links/${token}/password`), { method: 'POST', headers, body: JSON.stringify({ password: 'guess' }) }))
          .status;
      }),
    );
    expect(statuses.filter((s) => s === 422)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(45);
    // Used up for this visitor on both: even the right password waits.
    for (const server of [a, b]) {
      const right = await fetch(server.url(`/api/v1/shared-links/${token}/password`), {
        method: 'POST',
        headers,
        body: JSON.stringify({ password: 'open sesame' }),
      });
      expect(right.status).toBe(429);
    }
  });

  it('runs WORKERS=2 processes from one command on one port, beside the others, replaces one that dies, and stops them all on SIGTERM', async () => {
    const cluster = new ServerProcess(
      dataDir,
      { DATABASE_URL: PG_ADMIN_URL.replace(/\/[^/]*$/, `/${database}`), REDIS_URL, REDIS_PREFIX: prefix },
      PORTS[2]!,
      admin,
    );
    await cluster.start({ WORKERS: '2' });
    try {
      const children = () =>
        execFileSync('ps', ['-o', 'pid=', '--ppid', String(cluster.pid)], { encoding: 'utf8' })
          .trim()
          .split(/\s+/);
      // start() returns when one worker answers; a process the primary has just replaced stays listed until it is reaped.
      let first = children();
      for (let i = 0; i < 300 && first.length !== 2; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        first = children();
      }
      expect(first).toHaveLength(2);
      // A process that dies is replaced.
      process.kill(Number(first[0]), 'SIGKILL');
      let now = children();
      for (let i = 0; i < 300 && (now.length !== 2 || now.includes(first[0]!)); i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        now = children();
      }
      expect(now).toHaveLength(2);
      expect(now).not.toContain(first[0]);
      expect(now).toContain(first[1]);
      const answers = await Promise.all(Array.from({ length: 10 }, () => fetch(cluster.url('/api/v1/health')).then((r) => r.status)));
      expect(answers.every((status) => status === 200)).toBe(true);
      // A session made on the cluster is good on A: nothing lives in one process's memory.
      const session = await cluster.session();
      expect((await fetch(a.url('/api/v1/notifications'), { headers: session })).status).toBe(200);
      // An open event stream does not hold up the stop.
      const stream = await fetch(cluster.url('/api/v1/notifications/stream'), { headers: session });
      expect(stream.status).toBe(200);
    } finally {
      const started = Date.now();
      await cluster.stop();
      expect(Date.now() - started).toBeLessThan(10_000);
    }
    expect(cluster.pid).toBeNull();
  }, 60_000);
});

describe('WORKERS on SQLite', () => {
  it('refuses to start, naming what several processes need', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env: { ...process.env, WORKERS: '2', DATA_DIR: path.join(os.tmpdir(), 'drive-never-made'), DATABASE_URL: '', REDIS_URL: '' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('WORKERS=2: several processes need REDIS_URL');
    expect(result.stderr).toContain('WORKERS=2: several processes need PostgreSQL');
  });
});
