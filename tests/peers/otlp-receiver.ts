import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { decodeTraceExport } from './otlp-protobuf.js';

/** One span as an OTLP/HTTP JSON export carries it, flattened for assertions. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  /** The W3C tracestate the span carries ('' when none). */
  traceState: string;
  name: string;
  /** OTLP's SpanKind number: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  /** 0 unset, 1 ok, 2 error. */
  status: number;
  links: { traceId: string; spanId: string }[];
  resource: Record<string, string | number | boolean>;
  scope: string;
}

export interface OtlpReceiver {
  /** What OTEL_EXPORTER_OTLP_ENDPOINT should be: the exporter adds /v1/traces. */
  endpoint: string;
  /** Each POST's path and content type, in order. */
  requests: { path: string; contentType: string }[];
  spans(): ReceivedSpan[];
  /** Spans received so far (also when they are not kept). */
  count(): number;
  waitForSpan(test: (span: ReceivedSpan) => boolean, timeoutMs?: number): Promise<ReceivedSpan>;
  close(): Promise<void>;
}

interface AnyValue {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
}
interface KeyValue {
  key: string;
  value: AnyValue;
}
interface JsonSpan {
  traceId: string;
  spanId: string;
  traceState?: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: KeyValue[];
  status?: { code?: number };
  links?: { traceId: string; spanId: string }[];
}
interface ExportRequest {
  resourceSpans?: { resource?: { attributes?: KeyValue[] }; scopeSpans?: { scope?: { name?: string }; spans?: JsonSpan[] }[] }[];
}

const valueOf = (v: AnyValue): string | number | boolean =>
  v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : undefined) ?? v.doubleValue ?? v.boolValue ?? '';
const attributes = (list: KeyValue[] | undefined) => Object.fromEntries((list ?? []).map((kv) => [kv.key, valueOf(kv.value)]));

/**
 * OTLP/JSON ids are hex (the spec's exception to proto-JSON's base64); a
 * sender that used base64 is read too, so the double does not hide such a bug
 * by failing to parse: ids always come out as lower-case hex.
 */
const hexId = (id: string | undefined): string => {
  if (!id) return '';
  if (/^[\da-f]+$/i.test(id)) return id.toLowerCase();
  return Buffer.from(id, 'base64').toString('hex');
};

/**
 * A local OpenTelemetry collector for tests: takes OTLP/HTTP trace exports
 * (`POST /v1/traces`, protobuf or JSON, gzip or not) the way a collector does and keeps
 * every span. Answers 200 with the empty partial-success body the exporter expects.
 */
export async function startOtlpReceiver(options: { keep?: boolean } = {}): Promise<OtlpReceiver> {
  // A bench's run exports hundreds of thousands of spans: it only counts them.
  const keep = options.keep ?? true;
  let count = 0;
  const received: ReceivedSpan[] = [];
  const requests: { path: string; contentType: string }[] = [];
  const waiters: (() => void)[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0] ?? '';
      const contentType = req.headers['content-type'] ?? '';
      requests.push({ path, contentType });
      if (req.method !== 'POST' || path !== '/v1/traces') return res.writeHead(404).end();
      const protobuf = contentType.startsWith('application/x-protobuf');
      if (!protobuf && !contentType.startsWith('application/json')) return res.writeHead(415).end();
      let body = Buffer.concat(chunks);
      if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
      let parsed: ExportRequest;
      try {
        parsed = protobuf ? decodeTraceExport(body) : (JSON.parse(body.toString('utf8')) as ExportRequest);
      } catch {
        return res.writeHead(400).end();
      }
      for (const resourceSpans of parsed.resourceSpans ?? []) {
        const resource = attributes(resourceSpans.resource?.attributes);
        for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
          for (const span of scopeSpans.spans ?? []) {
            count += 1;
            if (!keep) continue;
            received.push({
              traceId: hexId(span.traceId),
              spanId: hexId(span.spanId),
              parentSpanId: hexId(span.parentSpanId),
              traceState: span.traceState ?? '',
              name: span.name,
              kind: span.kind,
              attributes: attributes(span.attributes),
              status: span.status?.code ?? 0,
              links: (span.links ?? []).map((l) => ({ traceId: hexId(l.traceId), spanId: hexId(l.spanId) })),
              resource,
              scope: scopeSpans.scope?.name ?? '',
            });
          }
        }
      }
      // An empty ExportTraceServiceResponse: no bytes in protobuf, `{}` in JSON.
      if (protobuf) res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      for (const wake of waiters.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    spans: () => [...received],
    count: () => count,
    waitForSpan(test, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no matching span reached the OTLP receiver')), timeoutMs);
        const check = () => {
          const found = received.find(test);
          if (found) {
            clearTimeout(timer);
            resolve(found);
          } else waiters.push(check);
        };
        check();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
