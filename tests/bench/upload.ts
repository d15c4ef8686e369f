/**
 * A large resumable upload over loopback beside nginx's WebDAV PUT of the same
 * file, alternating A/B, in the same run. Prints MB/s of both, the median
 * ratio, and the app's RSS growth. Asserts nothing.
 *
 *   npm run bench:upload          (BENCH_UPLOAD_MB=1024, BENCH_ROUNDS=3; -- --json out.json)
 */
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { startNginx } from './lib/nginx.js';
import { freePort, makeFile, median, signIn, startServer } from './lib/server.js';
import { conditions, writeJson } from './lib/report.js';

const megabytes = Number(process.env.BENCH_UPLOAD_MB ?? 1024);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const admin = { email: 'bench@example.com', password: 'bench password' };

/** Streams a file as one request body; resolves with the status when the answer arrives. */
function send(url: string, method: string, headers: Record<string, string>, file: string, size: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers: { ...headers, 'content-length': String(size) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    createReadStream(file, { highWaterMark: 1024 * 1024 }).pipe(req);
  });
}

async function main() {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'drive-bench-upload-'));
  const file = path.join(dir, 'payload.bin');
  const size = megabytes * 1024 * 1024;
  await makeFile(file, size);

  const nginx = await startNginx(path.join(dir, 'nginx'), await freePort());
  const app = await startServer(path.join(dir, 'app'), admin);
  const headers = await signIn(app.url, admin);
  const before = await app.memory();

  const mbps = (seconds: number) => megabytes / seconds;
  const results: { nginx: number; patch: number; total: number }[] = [];
  for (let round = 0; round < rounds; round += 1) {
    let t = performance.now();
    const putStatus = await send(`${nginx.url}/dav/payload-${round}.bin`, 'PUT', { 'content-type': 'application/octet-stream' }, file, size);
    if (putStatus >= 300) throw new Error(`nginx PUT answered ${putStatus}`);
    const nginxSeconds = (performance.now() - t) / 1000;
    await fs.rm(path.join(nginx.root, 'dav', `payload-${round}.bin`));

    t = performance.now();
    const created = await fetch(`${app.url}/api/v1/tus/upload`, {
      method: 'POST',
      headers: {
        ...headers,
        'tus-resumable': '1.0.0',
        'upload-length': String(size),
        'upload-metadata': `name ${Buffer.from(`payload-${round}.bin`).toString('base64')}`,
      },
    });
    if (created.status !== 201) throw new Error(`tus create answered ${created.status}: ${await created.text()}`);
    const location = created.headers.get('location')!;
    const patchStatus = await send(
      `${app.url}${location}`,
      'PATCH',
      { ...headers, 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      file,
      size,
    );
    if (patchStatus !== 204) throw new Error(`tus PATCH answered ${patchStatus}`);
    const patchSeconds = (performance.now() - t) / 1000;
    const done = await fetch(`${app.url}/api/v1/tus/entries`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ uploadKey: location.split('/').pop() }),
    });
    if (done.status !== 200) throw new Error(`tus/entries answered ${done.status}: ${await done.text()}`);
    const totalSeconds = (performance.now() - t) / 1000;
    results.push({ nginx: mbps(nginxSeconds), patch: mbps(patchSeconds), total: mbps(totalSeconds) });
    console.log(
      `round ${round + 1}: nginx PUT ${mbps(nginxSeconds).toFixed(0)} MB/s · tus PATCH ${mbps(patchSeconds).toFixed(0)} MB/s · tus incl. entry ${mbps(totalSeconds).toFixed(0)} MB/s`,
    );
  }
  const after = await app.memory();

  const nginxMedian = median(results.map((r) => r.nginx));
  console.log(`\n${megabytes} MiB, ${rounds} rounds, loopback, ${os.cpus().length} CPUs, load average ${conditions().loadAverage.join(' ')}`);
  console.log(`nginx WebDAV PUT        ${nginxMedian.toFixed(0)} MB/s`);
  console.log(
    `tus PATCH               ${median(results.map((r) => r.patch)).toFixed(0)} MB/s   ratio ${median(results.map((r) => r.patch / r.nginx)).toFixed(2)}`,
  );
  console.log(
    `tus incl. file entry    ${median(results.map((r) => r.total)).toFixed(0)} MB/s   ratio ${median(results.map((r) => r.total / r.nginx)).toFixed(2)}`,
  );
  console.log(
    `app RSS: ${(before.rss / 2 ** 20).toFixed(0)} MiB before, peak ${(after.peak / 2 ** 20).toFixed(0)} MiB, growth ${((after.peak - before.rss) / 2 ** 20).toFixed(0)} MiB (target ≤ 64)`,
  );

  await writeJson('upload', [
    {
      megabytes,
      nginxMBps: nginxMedian,
      patchRatio: median(results.map((r) => r.patch / r.nginx)),
      totalRatio: median(results.map((r) => r.total / r.nginx)),
      rssGrowthMiB: (after.peak - before.rss) / 2 ** 20,
    },
  ]);
  await app.stop();
  await nginx.stop();
  await fs.rm(dir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
