import type { IncomingMessage } from 'node:http';

const OVERRIDABLE = new Set(['PUT', 'PATCH', 'DELETE']);

/**
 * Clients send PUT/PATCH/DELETE as POST with `?_method=` and an
 * `X-HTTP-Method-Override` header (spec §7). Fastify's `rewriteUrl` runs before
 * routing, so changing the method here makes the request reach the real route.
 */
export function applyMethodOverride(req: IncomingMessage): string {
  const url = req.url ?? '/';
  if (req.method !== 'POST') return url;
  const header = req.headers['x-http-method-override'];
  const fromHeader = Array.isArray(header) ? header[0] : header;
  const query = url.includes('?') ? new URLSearchParams(url.slice(url.indexOf('?') + 1)).get('_method') : null;
  const wanted = (fromHeader ?? query ?? '').toUpperCase();
  if (OVERRIDABLE.has(wanted)) req.method = wanted;
  return url;
}
