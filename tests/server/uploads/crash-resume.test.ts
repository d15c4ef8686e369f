import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareDatabase } from '../support/test-app.js';
import { tusMetadata } from './support.js';

/**
 * A real server process is killed with SIGKILL in the middle of a PATCH and
 * started again on the same data: the upload goes on from the offset the
 * store had written, and the file ends up with the right bytes.
 */
describe('a server killed mid-upload', () => {
  let dataDir: string;
  let database: Awaited<ReturnType<typeof prepareDatabase>>;
  let port: number;
  let server: ChildProcess | null = null;
  const admin = { email: 'crash@example.com', password: 'crash test password' };

  const freePort = () =>
    new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port: p } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(p));
      });
    });

  async function start() {
    server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env: {
        ...process.env,
        ...database.env,
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        ADMIN_EMAIL: admin.email,
        ADMIN_PASSWORD: admin.password,
        WEB_DIST_DIR: path.join(dataDir, 'none'),
      },
      stdio: 'ignore',
    });
    for (let i = 0; i < 200; i += 1) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/api/v1/health`)).ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('server did not start');
  }

  async function session() {
    const first = await fetch(`http://127.0.0.1:${port}/api/v1/health`);
    const xsrf = /XSRF-TOKEN=([^;]+)/.exec(first.headers.get('set-cookie') ?? '')![1]!;
    const login = await fetch(`http://127.0.0.1:${port}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf },
      body: JSON.stringify(admin),
    });
    const cookies = login.headers.getSetCookie();
    const token = cookies.map((c) => /^drive_session=([^;]+)/.exec(c)?.[1]).find(Boolean)!;
    // Signing in rotates the XSRF token to one bound to the new session: the last one set counts.
    const bound = cookies
      .map((c) => /^XSRF-TOKEN=([^;]+)/.exec(c)?.[1])
      .filter(Boolean)
      .at(-1)!;
    return { cookie: `XSRF-TOKEN=${bound}; drive_session=${token}`, 'x-xsrf-token': bound, 'tus-resumable': '1.0.0' };
  }

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'drive-crash-'));
    database = await prepareDatabase();
    port = await freePort();
    await start();
  }, 60_000);
  afterAll(async () => {
    server?.kill('SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 200));
    await database.drop?.();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('resumes from the stored offset after a restart', async () => {
    const content = Buffer.alloc(2 * 1024 * 1024);
    for (let i = 0; i < content.length; i += 1) content[i] = (i * 31) % 256;
    let headers = await session();
    const created = await fetch(`http://127.0.0.1:${port}/api/v1/tus/upload`, {
      method: 'POST',
      headers: { ...headers, 'upload-length': String(content.length), 'upload-metadata': tusMetadata({ name: 'crash.bin', parentId: '0' }) },
    });
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    const id = location.split('/').pop()!;

    // Send the first megabyte and keep the request open, as a slow network would.
    const half = 1024 * 1024;
    const req = http.request(`http://127.0.0.1:${port}${location}`, {
      method: 'PATCH',
      headers: { ...headers, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream', 'content-length': String(content.length) },
    });
    req.on('error', () => undefined);
    req.write(content.subarray(0, half));
    const stored = path.join(dataDir, 'storage', 'tus', id);
    for (let i = 0; i < 200; i += 1) {
      const size = (await fs.stat(stored).catch(() => ({ size: 0 }))).size;
      if (size >= half) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    server!.kill('SIGKILL');
    await new Promise((resolve) => server!.once('exit', resolve));

    await start();
    headers = await session();
    const head = await fetch(`http://127.0.0.1:${port}${location}`, { method: 'HEAD', headers });
    expect(head.status).toBe(200);
    const offset = Number(head.headers.get('upload-offset'));
    expect(offset).toBe(half);

    const rest = await fetch(`http://127.0.0.1:${port}${location}`, {
      method: 'PATCH',
      headers: { ...headers, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
      body: content.subarray(offset),
    });
    expect(rest.status).toBe(204);
    const done = await fetch(`http://127.0.0.1:${port}/api/v1/tus/entries`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ uploadKey: id }),
    });
    expect(done.status).toBe(200);
    const { fileEntry } = (await done.json()) as { fileEntry: { hash: string; file_size: number } };
    expect(fileEntry.file_size).toBe(content.length);
    const download = await fetch(`http://127.0.0.1:${port}/api/v1/file-entries/download?hashes=${fileEntry.hash}`, { headers });
    const body = Buffer.from(await download.arrayBuffer());
    expect(createHash('sha256').update(body).digest('hex')).toBe(createHash('sha256').update(content).digest('hex'));
  }, 60_000);
});
