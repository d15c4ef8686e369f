import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** One item of a received envelope: its header and its JSON payload. */
export interface EnvelopeItem {
  type: string;
  payload: Record<string, unknown>;
}

export interface ReceivedEnvelope {
  path: string;
  query: URLSearchParams;
  header: Record<string, unknown>;
  items: EnvelopeItem[];
}

/** A Sentry event as the tests read it. */
export interface SentryEvent {
  event_id?: string;
  message?: string;
  transaction?: string;
  release?: string;
  environment?: string;
  level?: string;
  user?: Record<string, unknown>;
  request?: Record<string, unknown>;
  tags?: Record<string, string>;
  exception?: { values?: { type?: string; value?: string; stacktrace?: unknown }[] };
  breadcrumbs?: { category?: string; message?: string; data?: Record<string, unknown> }[] | { values: { category?: string; message?: string }[] };
  contexts?: Record<string, unknown>;
  sdk?: { name?: string; version?: string };
}

export interface SentryReceiver {
  /** A DSN whose envelopes come here (project 42, public key `publickey`). */
  dsn: string;
  /** Where a browser on another origin may post (CORS allowed). */
  origin: string;
  envelopes: ReceivedEnvelope[];
  events(): SentryEvent[];
  /** Resolves once an event matching `test` arrived (or rejects after `timeoutMs`). */
  waitForEvent(test: (event: SentryEvent) => boolean, timeoutMs?: number): Promise<SentryEvent>;
  close(): Promise<void>;
}

/**
 * A local Sentry ingestion endpoint for tests: it takes what the real SDKs
 * send (`POST /api/<project>/envelope/`, gzip or not) and keeps each envelope
 * parsed, newline-delimited as the protocol defines: an envelope header line,
 * then per item a header line and a payload (of `length` bytes when given).
 */
export async function startSentryReceiver(): Promise<SentryReceiver> {
  const envelopes: ReceivedEnvelope[] = [];
  const waiters: (() => void)[] = [];
  const server = http.createServer((req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Headers', '*');
    if (req.method === 'OPTIONS') return res.writeHead(204).end();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://receiver');
      if (req.method !== 'POST' || !/^\/api\/\d+\/envelope\/$/.test(url.pathname)) return res.writeHead(404).end();
      let body = Buffer.concat(chunks);
      if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
      try {
        envelopes.push({ path: url.pathname, query: url.searchParams, ...parseEnvelope(body) });
      } catch {
        return res.writeHead(400).end();
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      for (const wake of waiters.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const events = () => envelopes.flatMap((e) => e.items.filter((i) => i.type === 'event').map((i) => i.payload as SentryEvent));
  return {
    dsn: `http://publickey@127.0.0.1:${port}/42`,
    origin: `http://127.0.0.1:${port}`,
    envelopes,
    events,
    async waitForEvent(test, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = events().find(test);
        if (found) return found;
        const left = deadline - Date.now();
        if (left <= 0)
          throw new Error(`no matching event within ${timeoutMs} ms; got ${JSON.stringify(events().map((e) => e.exception?.values?.[0]?.value ?? e.message))}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(left, 200));
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function parseEnvelope(body: Buffer): { header: Record<string, unknown>; items: EnvelopeItem[] } {
  let offset = 0;
  const line = () => {
    const end = body.indexOf(0x0a, offset);
    const text = body.subarray(offset, end === -1 ? body.length : end).toString('utf8');
    offset = end === -1 ? body.length : end + 1;
    return text;
  };
  const header = JSON.parse(line()) as Record<string, unknown>;
  const items: EnvelopeItem[] = [];
  while (offset < body.length) {
    const itemHeaderText = line();
    if (!itemHeaderText.trim()) continue;
    const itemHeader = JSON.parse(itemHeaderText) as { type: string; length?: number };
    let payloadText: string;
    if (typeof itemHeader.length === 'number') {
      payloadText = body.subarray(offset, offset + itemHeader.length).toString('utf8');
      offset += itemHeader.length;
      if (body[offset] === 0x0a) offset += 1;
    } else {
      payloadText = line();
    }
    items.push({ type: itemHeader.type, payload: payloadText ? (JSON.parse(payloadText) as Record<string, unknown>) : {} });
  }
  return { header, items };
}
