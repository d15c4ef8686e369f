/**
 * A large file downloaded from the app beside nginx's sendfile of the same
 * file, alternating, in the same run. Prints MB/s of both and the median
 * ratio. Asserts nothing.
 *
 *   npm run bench:download        (BENCH_DOWNLOAD_MB=1024, BENCH_ROUNDS=3)
 */
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { startNginx } from './lib/nginx.js';
import { freePort, makeFile, median, signIn, startServer } from './lib/server.js';

const megabytes = Number(process.env.BENCH_DOWNLOAD_MB ?? 1024);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const admin = { email: 'bench@example.com', password: 'bench password' };

/** Reads a whole response, counting bytes; resolves with the count. */
function drain(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        if ((res.statusCode ?? 0) >= 300) return reject(new Error(`${url} answered ${res.statusCode}`));
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve(bytes));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

async function main() {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'drive-bench-download-'));
  const size = megabytes * 1024 * 1024;
  const nginx = await startNginx(path.join(dir, 'nginx'), await freePort());
  const file = path.join(nginx.root, 'files', 'payload.bin');
  await makeFile(file, size);

  const app = await startServer(path.join(dir, 'app'), admin);
  const headers = await signIn(app.url, admin);
  // Store the same bytes in the drive through the app's own upload call.
  const created = await fetch(`${app.url}/api/v1/tus/upload`, {
    method: 'POST',
    headers: {
      ...headers,
      'tus-resumable': '1.0.0',
      'upload-length': String(size),
      'upload-metadata': `name ${Buffer.from('payload.bin').toString('base64')}`,
    },
  });
  const location = created.headers.get('location')!;
  await new Promise<void>((resolve, reject) => {
    const req = http.request(`${app.url}${location}`, {
      method: 'PATCH',
      headers: {
        ...headers,
        'tus-resumable': '1.0.0',
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
        'content-length': String(size),
      },
    });
    req.on('response', (res) => (res.statusCode === 204 ? resolve() : reject(new Error(`PATCH ${res.statusCode}`))));
    req.on('error', reject);
    void fs.readFile(file).then((bytes) => req.end(bytes));
  });
  const done = await fetch(`${app.url}/api/v1/tus/entries`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ uploadKey: location.split('/').pop() }),
  });
  const { fileEntry } = (await done.json()) as { fileEntry: { hash: string } };

  const results: { nginx: number; app: number }[] = [];
  for (let round = 0; round < rounds; round += 1) {
    let t = performance.now();
    if ((await drain(`${nginx.url}/files/payload.bin`)) !== size) throw new Error('nginx sent a short file');
    const nginxMbps = megabytes / ((performance.now() - t) / 1000);
    t = performance.now();
    if ((await drain(`${app.url}/api/v1/file-entries/download?hashes=${fileEntry.hash}`, headers)) !== size) throw new Error('the app sent a short file');
    const appMbps = megabytes / ((performance.now() - t) / 1000);
    results.push({ nginx: nginxMbps, app: appMbps });
    console.log(`round ${round + 1}: nginx sendfile ${nginxMbps.toFixed(0)} MB/s · app ${appMbps.toFixed(0)} MB/s`);
  }
  console.log(`\n${megabytes} MiB, ${rounds} rounds, loopback, ${os.cpus().length} CPUs`);
  console.log(`nginx sendfile   ${median(results.map((r) => r.nginx)).toFixed(0)} MB/s`);
  console.log(`app download     ${median(results.map((r) => r.app)).toFixed(0)} MB/s   ratio ${median(results.map((r) => r.app / r.nginx)).toFixed(2)}`);
  await app.stop();
  await nginx.stop();
  await fs.rm(dir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
