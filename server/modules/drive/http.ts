import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ByteRange } from '../../storage/disk.js';

/**
 * HTTP details of sending stored files: byte ranges (RFC 9110 §14), validators
 * (ETag from the sha256, Last-Modified) and a Content-Disposition that is safe
 * whatever the file is called (RFC 6266 with an RFC 8187 UTF-8 name).
 */
export type RangeResult = { kind: 'full' } | { kind: 'partial'; range: ByteRange } | { kind: 'unsatisfiable' };

/** One range is honoured; several, or a malformed header, get the whole file (as the RFC allows). */
export function parseRange(header: string | undefined, size: number): RangeResult {
  if (!header) return { kind: 'full' };
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return { kind: 'full' };
  const [, first, last] = match;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', range: { start: Math.max(0, size - suffix), end: size - 1 } };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size || end < start) return { kind: 'unsatisfiable' };
  return { kind: 'partial', range: { start, end } };
}

/** `attachment; filename="report_.pdf"; filename*=UTF-8''r%C3%A9port%22.pdf` */
export function contentDisposition(type: 'attachment' | 'inline', name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%;]/g, '_') || 'download';
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

export const etagOf = (sha256: string | null): string | null => (sha256 ? `"${sha256}"` : null);

/** Request headers as Node parses them (Fastify's and WebDAV's requests both carry these). */
export type RequestHeaders = Record<string, string | string[] | undefined>;

const headerOf = (headers: RequestHeaders, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
};

const entityTags = (value: string): string[] =>
  value
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);

/** Whole seconds, as HTTP dates carry them. */
const notAfter = (date: Date, httpDate: string): boolean => {
  const ms = Date.parse(httpDate);
  return Number.isFinite(ms) && Math.floor(date.getTime() / 1000) * 1000 <= ms;
};

/** True when the client's copy is current: If-None-Match first, else If-Modified-Since (second precision). */
export function isNotModified(request: { headers: RequestHeaders }, etag: string | null, lastModified: Date): boolean {
  const ifNoneMatch = headerOf(request.headers, 'if-none-match');
  if (ifNoneMatch) {
    if (!etag) return false;
    const tags = entityTags(ifNoneMatch).map((t) => t.replace(/^W\//, ''));
    return tags.includes('*') || tags.includes(etag);
  }
  const since = headerOf(request.headers, 'if-modified-since');
  return since ? notAfter(lastModified, since) : false;
}

/**
 * The preconditions that answer 412 (RFC 9110 §13.2.2, steps 1 to 3):
 * If-Match naming none of the current tags (strong comparison; `*` needs a
 * current representation), else If-Unmodified-Since older than the last
 * change, and for a method that changes state (not `safe`) If-None-Match
 * naming the current tag or `*` over something that exists. `current` is
 * null when nothing is there. A safe request whose If-None-Match matches is
 * isNotModified's 304, not this.
 */
export function preconditionFailed(headers: RequestHeaders, current: { etag: string | null; lastModified: Date | null } | null, safe: boolean): boolean {
  const ifMatch = headerOf(headers, 'if-match');
  if (ifMatch !== undefined) {
    const tags = entityTags(ifMatch);
    if (!current) return true;
    if (!tags.includes('*') && (current.etag === null || !tags.includes(current.etag))) return true;
  } else {
    const since = headerOf(headers, 'if-unmodified-since');
    if (since && current?.lastModified && Number.isFinite(Date.parse(since)) && !notAfter(current.lastModified, since)) return true;
  }
  const ifNoneMatch = headerOf(headers, 'if-none-match');
  if (!safe && ifNoneMatch !== undefined && current) {
    const tags = entityTags(ifNoneMatch).map((t) => t.replace(/^W\//, ''));
    if (tags.includes('*') || (current.etag !== null && tags.includes(current.etag))) return true;
  }
  return false;
}

/** A Range is used only if If-Range (when sent) still names this version. */
export function rangeApplies(request: FastifyRequest, etag: string | null): boolean {
  const header = request.headers['if-range'];
  const ifRange = Array.isArray(header) ? header[0] : header;
  if (!ifRange) return true;
  return etag !== null && ifRange.trim() === etag;
}

/** The sandbox every stored document gets when a browser could render it as a page. */
export const SANDBOX_CSP = "default-src 'none'; sandbox";

/**
 * Headers every stored file leaves with: the browser must never guess a type,
 * and anything that could render as a page (text, markup, attachments) may
 * run nothing. Raster images, video, audio and PDF shown inline skip the
 * sandbox: they run no page script, and browsers' media and PDF viewers do
 * not render inside one.
 */
export function protectiveHeaders(reply: FastifyReply, sandbox: boolean): void {
  reply.header('X-Content-Type-Options', 'nosniff');
  if (sandbox) reply.header('Content-Security-Policy', SANDBOX_CSP);
  reply.header('Cache-Control', 'private, no-cache');
}
