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

/** True when the client's copy is current: If-None-Match first, else If-Modified-Since (second precision). */
export function isNotModified(request: FastifyRequest, etag: string | null, lastModified: Date): boolean {
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch) {
    if (!etag) return false;
    const tags = ifNoneMatch.split(',').map((t) => t.trim().replace(/^W\//, ''));
    return tags.includes('*') || tags.includes(etag);
  }
  const since = request.headers['if-modified-since'];
  if (!since) return false;
  const sinceMs = Date.parse(since);
  return Number.isFinite(sinceMs) && Math.floor(lastModified.getTime() / 1000) * 1000 <= sinceMs;
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
