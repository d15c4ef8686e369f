import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { loadConfig } from '../../../server/config.js';
import { createDb } from '../../../server/db/index.js';
import { freePort, runDoctorProcess, ServerProcess, type Session } from '../support/server-process.js';
import { prepareDatabase } from '../support/test-app.js';
import { multipartUpload, tusMetadata } from '../uploads/support.js';
import { emptyFoldersBelow, filesBelow } from './support.js';

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const bytes = (size: number, seed: number) => {
  const content = Buffer.alloc(size);
  for (let i = 0; i < content.length; i += 1) content[i] = (i * seed + 7) % 256;
  return content;
};
const until = async (condition: () => Promise<boolean>, what: string) => {
  for (let i = 0; i < 400; i += 1) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
};

/**
 * A real server process killed with SIGKILL during a plain multipart upload,
 * during a tus PATCH and during a file entry's commit (held there by the
 * test-only TEST_PAUSE_AT). After each restart (start-up recovery, then one
 * housekeeping pass): no temporary files, no reservation an upload cannot
 * use, the user's space exactly what their files use, every acknowledged
 * file whole, every cut-off tus upload resumable, and `npm run doctor`
 * reports nothing.
 */
describe('a server killed at any point', () => {
  let server: ServerProcess;
  let database: Awaited<ReturnType<typeof prepareDatabase>>;
  let headers: Session;
  const acknowledged: { hash: string; content: Buffer }[] = [];
  const storage = () => path.join(server.dataDir, 'storage');

  beforeAll(async () => {
    database = await prepareDatabase();
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'drive-crash-'));
    server = new ServerProcess(dataDir, database.env, await freePort(), { email: 'crash@example.com', password: 'crash test password' });
    await server.start();
    headers = await server.session();
    acknowledged.push(await uploadPlain('before.bin', bytes(50_000, 3)));
  }, 60_000);
  afterAll(async () => {
    await server.kill();
    await database.drop?.();
    await fs.rm(server.dataDir, { recursive: true, force: true });
  });

  async function restart(env: Record<string, string> = {}) {
    await server.kill();
    await server.start(env);
    headers = await server.session();
  }

  async function uploadPlain(name: string, content: Buffer) {
    const { body, headers: multipart } = multipartUpload({ parentId: '0' }, { name, content });
    const res = await fetch(server.url('/api/v1/file-entries'), { method: 'POST', headers: { ...headers, ...multipart }, body: new Uint8Array(body) });
    expect(res.status).toBe(200);
    const { fileEntry } = (await res.json()) as { fileEntry: { hash: string } };
    return { hash: fileEntry.hash, content };
  }

  async function createTus(name: string, length: number): Promise<string> {
    const res = await fetch(server.url('/api/v1/tus/upload'), {
      method: 'POST',
      headers: { ...headers, 'upload-length': String(length), 'upload-metadata': tusMetadata({ name, parentId: '0' }) },
    });
    expect(res.status).toBe(201);
    return res.headers.get('location')!;
  }

  const patch = (location: string, offset: number, body: Buffer) =>
    fetch(server.url(location), {
      method: 'PATCH',
      headers: { ...headers, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
      body: new Uint8Array(body),
    });

  async function finish(location: string) {
    const res = await fetch(server.url('/api/v1/tus/entries'), {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ uploadKey: location.split('/').pop() }),
    });
    return res;
  }

  /** Starts a request and sends only `sent` bytes of its body, as a connection cut by the crash would. */
  function sendPart(method: string, address: string, requestHeaders: Record<string, string>, body: Buffer, sent: number) {
    const req = http.request(server.url(address), { method, headers: { ...requestHeaders, 'content-length': String(body.length) } });
    req.on('error', () => undefined);
    req.write(body.subarray(0, sent));
  }

  async function reservations(): Promise<string[]> {
    const db = createDb(loadConfig(server.serverEnv).database);
    try {
      return (await db.kysely.selectFrom('upload_reservations').select('key').orderBy('key').execute()).map((r) => r.key);
    } finally {
      await db.destroy();
    }
  }

  /** The invariants after a restart; `resumable` are the tus uploads that may (and must) still be there. */
  async function expectConsistent(resumable: string[] = []) {
    const drive = path.join(storage(), 'drive');
    expect(await filesBelow(path.join(drive, '.tmp'))).toEqual([]);
    expect((await emptyFoldersBelow(drive)).filter((f) => f !== '.tmp')).toEqual([]);
    const ids = resumable.map((location) => location.split('/').pop()!).sort();
    expect(await reservations()).toEqual(ids);
    expect((await filesBelow(path.join(storage(), 'tus'))).sort()).toEqual(ids.flatMap((id) => [id, `${id}.json`]).sort());
    const usage = (await (await fetch(server.url('/api/v1/user/space-usage'), { headers })).json()) as { used: number };
    expect(usage.used).toBe(acknowledged.reduce((sum, file) => sum + file.content.length, 0));
    for (const file of acknowledged) {
      const download = await fetch(server.url(`/api/v1/file-entries/download?hashes=${file.hash}`), { headers });
      expect(sha(Buffer.from(await download.arrayBuffer()))).toBe(sha(file.content));
    }
  }

  it('during a plain multipart upload: its reservation and partial file go; an empty tus upload goes too', async () => {
    const emptyTus = await createTus('never-sent.bin', 1000);
    const content = bytes(600_000, 5);
    const { body, headers: multipart } = multipartUpload({ parentId: '0' }, { name: 'cut.bin', content });
    sendPart('POST', '/api/v1/file-entries', { ...headers, ...multipart }, body, 300_000);
    const tmp = path.join(storage(), 'drive', '.tmp');
    await until(async () => {
      const [part] = await filesBelow(tmp);
      return part !== undefined && (await fs.stat(path.join(tmp, part))).size > 100_000;
    }, 'the partial file');
    expect(await reservations()).toHaveLength(2);
    await restart();

    await expectConsistent();
    expect((await fetch(server.url(emptyTus), { method: 'HEAD', headers })).status).toBe(404);
  }, 60_000);

  it('during a tus PATCH: the upload resumes from the stored offset and nothing else is left', async () => {
    const content = bytes(1024 * 1024, 11);
    const location = await createTus('resumed.bin', content.length);
    sendPart('PATCH', location, { ...headers, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, content, 512 * 1024);
    const stored = path.join(storage(), 'tus', location.split('/').pop()!);
    await until(async () => ((await fs.stat(stored).catch(() => null))?.size ?? 0) >= 512 * 1024, 'the first half');
    await restart();

    await expectConsistent([location]);
    const head = await fetch(server.url(location), { method: 'HEAD', headers });
    const offset = Number(head.headers.get('upload-offset'));
    expect(offset).toBe(512 * 1024);
    expect((await patch(location, offset, content.subarray(offset))).status).toBe(204);
    const done = await finish(location);
    expect(done.status).toBe(200);
    acknowledged.push({ hash: ((await done.json()) as { fileEntry: { hash: string } }).fileEntry.hash, content });
    await expectConsistent();
  }, 60_000);

  it("during a finished tus upload's entry commit: the adopted bytes go back and the upload finishes after the restart", async () => {
    await restart({ TEST_PAUSE_AT: 'entry-commit' });
    const content = bytes(300_000, 13);
    const location = await createTus('committed.bin', content.length);
    expect((await patch(location, 0, content)).status).toBe(204);
    void finish(location).catch(() => undefined);
    await server.waitFor('paused at entry-commit');
    const id = location.split('/').pop()!;
    // The crash window that matters: the bytes already moved into the drive, the row not committed.
    await expect(fs.stat(path.join(storage(), 'tus', id))).rejects.toThrow();
    expect(await filesBelow(path.join(storage(), 'drive', id))).toHaveLength(1);
    await restart();

    await expectConsistent([location]);
    const done = await finish(location);
    expect(done.status).toBe(200);
    acknowledged.push({ hash: ((await done.json()) as { fileEntry: { hash: string } }).fileEntry.hash, content });
    await expectConsistent();
  }, 60_000);

  it("during a plain upload's entry commit: its bytes and reservation go", async () => {
    await restart({ TEST_PAUSE_AT: 'entry-commit' });
    const { body, headers: multipart } = multipartUpload({ parentId: '0' }, { name: 'uncommitted.bin', content: bytes(200_000, 17) });
    void fetch(server.url('/api/v1/file-entries'), { method: 'POST', headers: { ...headers, ...multipart }, body: new Uint8Array(body) }).catch(
      () => undefined,
    );
    await server.waitFor('paused at entry-commit');
    const objects = await filesBelow(path.join(storage(), 'drive'));
    expect(objects.length).toBe(acknowledged.length + 1);
    await server.kill();
    // What the crash left, seen by the doctor on the stopped server, before the restart settles it.
    const before = await runDoctorProcess(server.serverEnv, ['--server-stopped']);
    expect(before.code).toBe(1);
    expect(before.output).toMatch(/unreferenced-bytes +[\w-]+\/[\w-]+: 200000 bytes no entry points to/);
    expect(before.output).toMatch(/reservation-without-upload +reservation plain-/);
    await restart();

    await expectConsistent();
    expect(await filesBelow(path.join(storage(), 'drive'))).toHaveLength(acknowledged.length);
  }, 60_000);

  it('leaves a store the doctor finds nothing wrong with, running or stopped', async () => {
    // Running again afterwards: the tests that run after this one need the server.
    onTestFinished(() => restart());
    const running = await runDoctorProcess(server.serverEnv);
    expect(running.output).toContain('No problems found');
    expect(running.code).toBe(0);
    await server.stop();
    const stopped = await runDoctorProcess(server.serverEnv, ['--server-stopped']);
    expect(stopped.output).toContain('No problems found');
    expect(stopped.code).toBe(0);
  }, 60_000);
});
