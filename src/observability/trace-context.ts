/**
 * W3C Trace Context for the page's and the worker's own API calls: the server
 * continues a request's `traceparent`, so one upload or one save is one trace
 * from the page through the worker to the database (issue 33). Each realm
 * (the page, the worker) holds its own setting, read from the server's client
 * config; while the server exports no traces, nothing is sent.
 *
 * A queued item's id is a UUID made in the page when the person acts; its 128
 * bits are the trace id, so every request of that upload or save (its retries,
 * a resume after a reload, in the page or the worker) lands in one trace with
 * nothing more stored. The sampling decision is a function of the trace id, so
 * all of them agree without sharing state.
 */

let sampleRate: number | null = null;

export interface TracingConfig {
  tracing: boolean;
  tracesSampleRate: number;
}

/** From the server's client config; null (offline, or no answer) leaves tracing off. */
export function configureTracing(config: TracingConfig | null): void {
  sampleRate = config?.tracing ? Math.min(1, Math.max(0, config.tracesSampleRate)) : null;
}

const hex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
const randomHex = (length: number) => hex(crypto.getRandomValues(new Uint8Array(length)));
const ZEROS = /^0+$/;

/** FNV-1a (32 bits) from four starting points: 128 bits that a string always maps to the same way. */
function hash128(text: string): string {
  let out = '';
  for (const seed of [0x811c9dc5, 0x01000193, 0x9e3779b9, 0x85ebca6b]) {
    let h = seed;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
    out += h.toString(16).padStart(8, '0');
  }
  return out;
}

/**
 * The trace id of a queued item: its UUID without dashes, or for any other id
 * a hash of it (the same for every request of the item); a fresh one without an id.
 */
export function traceIdOf(itemId?: string): string {
  if (!itemId) return randomHex(16);
  const candidate = itemId.replace(/-/g, '').toLowerCase();
  const id = /^[0-9a-f]{32}$/.test(candidate) ? candidate : hash128(itemId);
  // All zeros is not a valid trace id (W3C Trace Context §3.2.2.3).
  return ZEROS.test(id) ? randomHex(16) : id;
}

/** Whether a trace is kept at `rate`, decided by its id alone (its last 8 hex digits, uniform in a UUID v4 or a random id). */
export function sampled(traceId: string, rate: number): boolean {
  if (rate >= 1) return true;
  if (rate <= 0) return false;
  return Number.parseInt(traceId.slice(-8), 16) / 0x1_0000_0000 < rate;
}

/** `traceparent` for one request of the trace `itemId` names (or of a new trace); empty while tracing is off. */
export function traceHeaders(itemId?: string): Record<string, string> {
  if (sampleRate === null) return {};
  const traceId = traceIdOf(itemId);
  // Every request is its own span of the trace; the flag carries the sampling decision to the server.
  return { traceparent: `00-${traceId}-${randomHex(8)}-${sampled(traceId, sampleRate) ? '01' : '00'}` };
}
