import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, ServerProcess } from '../support/server-process.js';
import { prepareDatabase } from '../support/test-app.js';
import { tusMetadata } from './support.js';

/**
 * A real server process is killed with SIGKILL in the middle of a PATCH and
 * started again on the same data: the upload goes on from the offset the
 * store had written, and the file ends up with the right bytes.
 */
describe('a server killed mid-upload', () => {
  let server: ServerProcess;
  let database: Awaited<ReturnType<typeof prepareDatabase>>;

  beforeAll(async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'drive-crash-'));
    database = await prepareDatabase();
    server = new ServerProcess(dataDir, database.env, await freePort(), { email: 'crash@example.com', password: 'crash test password' });
    await server.start();
  }, 60_000);
  afterAll(async () => {
    await server.kill();
    await database.drop?.();
    await fs.rm(server.dataDir, { recursive: true, force: true });
  });

  it('resumes from the stored offset after a restart', async () => {
    const content = Buffer.alloc(2 * 1024 * 1024);
    for (let i = 0; i < content.length; i += 1) content[i] = (i * 31) % 256;
    let headers = await server.session();
    const created = await fetch(server.url('/api/v1/tus/upload'), {
      method: 'POST',
      headers: { ...headers, 'upload-length': String(content.length), 'upload-metadata': tusMetadata({ name: 'crash.bin', parentId: '0' }) },
    });
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    const id = location.split('/').pop()!;

    // Send the first megabyte and keep the request open, as a slow network would.
    const half = 1024 * 1024;
    const req = http.request(server.url(location), {
      method: 'PATCH',
      headers: { ...headers, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream', 'content-length': String(content.length) },
    });
    req.on('error', () => undefined);
    req.write(content.subarray(0, half));
    const stored = path.join(server.dataDir, 'storage', 'tus', id);
    for (let i = 0; i < 200; i += 1) {
      const size = (await fs.stat(stored).catch(() => ({ size: 0 }))).size;
      if (size >= half) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await server.kill();

    await server.start();
    headers = await server.session();
    const head = await fetch(server.url(location), { method: 'HEAD', headers });
    expect(head.status).toBe(200);
    const offset = Number(head.headers.get('upload-offset'));
    expect(offset).toBe(half);

    const rest = await fetch(server.url(location), {
      method: 'PATCH',
      headers: { ...headers, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
      body: content.subarray(offset),
    });
    expect(rest.status).toBe(204);
    const done = await fetch(server.url('/api/v1/tus/entries'), {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ uploadKey: id }),
    });
    expect(done.status).toBe(200);
    const { fileEntry } = (await done.json()) as { fileEntry: { hash: string; file_size: number } };
    expect(fileEntry.file_size).toBe(content.length);
    const download = await fetch(server.url(`/api/v1/file-entries/download?hashes=${fileEntry.hash}`), { headers });
    const body = Buffer.from(await download.arrayBuffer());
    expect(createHash('sha256').update(body).digest('hex')).toBe(createHash('sha256').update(content).digest('hex'));
  }, 60_000);
});
