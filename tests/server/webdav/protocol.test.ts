import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, ServerProcess, type Session } from '../support/server-process.js';
import { prepareDatabase } from '../support/test-app.js';
import { debianTool } from './debian-tools.js';

const run = promisify(execFile);
const litmus = debianTool('litmus', 'litmus');
const rclone = debianTool('rclone', 'rclone');

/**
 * WebDAV against a real server process, with real clients as the oracle:
 * Debian's litmus (all its groups: basic, copymove, props, locks, http) and rclone
 * (a tree of a few hundred files synced up and back, twice; a changed file
 * synced again keeps its earlier contents as versions, issue 34).
 */
describe.skipIf(!litmus || !rclone)('WebDAV with litmus and rclone', () => {
  let server: ServerProcess;
  let database: Awaited<ReturnType<typeof prepareDatabase>>;
  let token: string;
  let work: string;
  let session: Session;

  beforeAll(async () => {
    work = await fs.mkdtemp(path.join(os.tmpdir(), 'drive-dav-'));
    database = await prepareDatabase();
    server = new ServerProcess(path.join(work, 'data'), database.env, await freePort(), { email: 'dav@example.com', password: 'dav test password' });
    await server.start();
    session = await server.session();
    const created = await fetch(server.url('/api/v1/access-tokens'), {
      method: 'POST',
      headers: { ...session, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'webdav', scopes: ['read', 'write'] }),
    });
    token = ((await created.json()) as { plainTextToken: string }).plainTextToken;
  }, 60_000);

  afterAll(async () => {
    await server.stop();
    await database.drop?.();
    await fs.rm(work, { recursive: true, force: true });
  });

  it('passes litmus whole: basic, copymove, props, locks and http', async () => {
    const url = server.url('/dav/My%20drive/');
    const result = await run(litmus!, [url, 'dav@example.com', token], {
      env: { ...process.env, TESTS: 'basic copymove props locks http', HOME: work },
      cwd: work,
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: { stdout?: string; stderr?: string }) => ({ stdout: error.stdout ?? '', stderr: error.stderr ?? '' }));
    const failures = result.stdout.split('\n').filter((line) => /FAIL|WARNING:/.test(line));
    expect(failures, result.stdout).toEqual([]);
    for (const group of ['basic', 'copymove', 'props', 'locks', 'http'])
      expect(result.stdout).toMatch(new RegExp(`<- summary for \`${group}': of \\d+ tests run: \\d+ passed, 0 failed`));
  }, 180_000);

  it('syncs a tree with rclone into the drive and back, byte for byte, and a second sync transfers nothing', async () => {
    const source = path.join(work, 'tree');
    for (let i = 0; i < 300; i += 1) {
      const folder = path.join(source, `folder ${i % 6}`, i % 2 ? 'sub' : '');
      await fs.mkdir(folder, { recursive: true });
      await fs.writeFile(path.join(folder, `file-${i}-ü.txt`), `file ${i}\n`.repeat(1 + (i % 50)));
    }
    await fs.writeFile(path.join(source, 'empty.bin'), '');
    const config = path.join(work, 'rclone.conf');
    const obscured = (await run(rclone!, ['obscure', token])).stdout.trim();
    await fs.writeFile(config, `[drive]\ntype = webdav\nurl = ${server.url('/dav/My drive')}\nvendor = other\nuser = dav@example.com\npass = ${obscured}\n`);
    const sync = (from: string, to: string) => run(rclone!, ['--config', config, 'sync', from, to, '-v', '--transfers', '4'], { maxBuffer: 16 * 1024 * 1024 });
    const copied = (output: { stderr: string }) => (output.stderr.match(/: Copied \(/g) ?? []).length;
    expect(copied(await sync(source, 'drive:tree'))).toBe(301);
    expect(copied(await sync(source, 'drive:tree'))).toBe(0);
    const back = path.join(work, 'back');
    expect(copied(await sync('drive:tree', back))).toBe(301);
    expect(copied(await sync('drive:tree', back))).toBe(0);
    expect(await digest(back)).toEqual(await digest(source));
  }, 300_000);

  it('keeps a version each time rclone syncs a changed file (issue 34)', async () => {
    const source = path.join(work, 'changing');
    await fs.mkdir(source, { recursive: true });
    const config = path.join(work, 'rclone-changing.conf');
    const obscured = (await run(rclone!, ['obscure', token])).stdout.trim();
    await fs.writeFile(config, `[drive]\ntype = webdav\nurl = ${server.url('/dav/My drive')}\nvendor = other\nuser = dav@example.com\npass = ${obscured}\n`);
    const sync = () => run(rclone!, ['--config', config, 'sync', source, 'drive:changing', '-v'], { maxBuffer: 16 * 1024 * 1024 });
    const copied = (output: { stderr: string }) => (output.stderr.match(/: Copied \(/g) ?? []).length;
    const api = async <T>(address: string): Promise<T> => {
      const response = await fetch(server.url(address), { headers: session });
      expect(response.status, address).toBe(200);
      return (await response.json()) as T;
    };
    type Listed = { pagination: { data: { id: string; name: string }[] } };
    const named = async (folderId: string, name: string) =>
      (await api<Listed>(`/api/v1/drive/file-entries?folderId=${folderId}&perPage=100`)).pagination.data.find((entry) => entry.name === name)!;

    // The file changes size each time: with vendor "other" rclone cannot set times on the server and compares sizes.
    const contents = ['first\n', 'second, longer\n', 'third, longer still\n'];
    for (const content of contents) {
      await fs.writeFile(path.join(source, 'notes.txt'), content);
      expect(copied(await sync())).toBe(1);
    }
    const file = await named((await named('0', 'changing')).id, 'notes.txt');
    const { versions } = await api<{ versions: { file_size: number; download_url: string }[] }>(`/api/v1/file-entries/${file.id}/versions`);
    expect(versions.map((version) => version.file_size)).toEqual([contents[1]!.length, contents[0]!.length]);
    const bodies = await Promise.all(versions.map(async (version) => (await fetch(server.url(version.download_url), { headers: session })).text()));
    expect(bodies).toEqual([contents[1], contents[0]]);
    const current = await fetch(server.url(`/dav/My%20drive/changing/notes.txt`), {
      headers: { authorization: `Basic ${Buffer.from(`dav@example.com:${token}`).toString('base64')}` },
    });
    expect(await current.text()).toBe(contents[2]);
    // Nothing changed: nothing is sent, and no version is made.
    expect(copied(await sync())).toBe(0);
    expect((await api<{ versions: unknown[] }>(`/api/v1/file-entries/${file.id}/versions`)).versions).toHaveLength(2);
  }, 120_000);
});

async function digest(root: string): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  for (const name of await fs.readdir(root, { recursive: true })) {
    const full = path.join(root, name);
    if ((await fs.stat(full)).isFile())
      result[name] = createHash('sha256')
        .update(await fs.readFile(full))
        .digest('hex');
  }
  return result;
}
