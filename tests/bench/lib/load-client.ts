/**
 * One autocannon run in its own process (so the client's work never shares a
 * core's event loop with a server under test), recording every response's
 * time itself: autocannon's summary has p50, p97.5 and p99 but no p95, and the
 * search target is a p95. Prints one JSON line; `load()` in listing.ts runs it.
 *
 *   node --import tsx tests/bench/lib/load-client.ts '{"url":…,"connections":16,"seconds":5,"headers":{…}}'
 */
import { createRequire } from 'node:module';

interface Options {
  url: string;
  connections: number;
  seconds: number;
  headers: Record<string, string>;
}

interface Instance {
  on(event: 'response', listener: (client: unknown, statusCode: number, bytes: number, ms: number) => void): void;
}
type Autocannon = (
  opts: { url: string; connections: number; duration: number; headers: Record<string, string> },
  done: (
    error: Error | null,
    result: { requests: { average: number }; errors: number; non2xx: number; statusCodeStats?: Record<string, { count: number }> },
  ) => void,
) => Instance;

export interface LoadResult {
  rps: number;
  /** Nearest-rank percentiles of every response's time, in ms (as autocannon measures it: request written to response read). */
  p50: number;
  p95: number;
  p975: number;
  p99: number;
  responses: number;
  errors: number;
  non2xx: number;
  statusCodes: string[];
}

/** Nearest rank: the smallest recorded time that at least p% of the responses did not exceed. */
function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

async function main() {
  const options = JSON.parse(process.argv[2] ?? '{}') as Options;
  const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
  const times: number[] = [];
  const result = await new Promise<Parameters<Parameters<Autocannon>[1]>[1]>((resolve, reject) => {
    const instance = autocannon({ url: options.url, connections: options.connections, duration: options.seconds, headers: options.headers }, (error, r) =>
      error ? reject(error) : resolve(r),
    );
    instance.on('response', (_client, _status, _bytes, ms) => times.push(ms));
  });
  times.sort((a, b) => a - b);
  const round = (ms: number) => Math.round(ms * 10) / 10;
  const out: LoadResult = {
    rps: result.requests.average,
    p50: round(percentile(times, 50)),
    p95: round(percentile(times, 95)),
    p975: round(percentile(times, 97.5)),
    p99: round(percentile(times, 99)),
    responses: times.length,
    errors: result.errors,
    non2xx: result.non2xx,
    statusCodes: Object.keys(result.statusCodeStats ?? {}),
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
