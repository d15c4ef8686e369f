import { userDatabase } from '../user-db';
import { blobKey, offlineCacheName, thumbnailKey, type CacheStore } from './bytes';

// The worker answers the app's own addresses of a file's bytes from the
// device when the network cannot: the preview, the thumbnail and a one-file
// download of an entry a pin holds. The page keeps using the addresses it
// always did, offline or not; Range requests (video, audio, PDF) are cut
// from the stored Blob.

export type ByteRoute = { kind: 'preview' | 'thumbnail' | 'download'; entryId: string };

const ENTRY_ROUTE = /^\/api\/v1\/file-entries\/([^/]+)\/(preview|thumbnail)$/;

/** Which of the app's byte addresses a request is, or null. */
export function byteRouteOf(url: URL): ByteRoute | null {
  const match = ENTRY_ROUTE.exec(url.pathname);
  if (match) return { kind: match[2] as 'preview' | 'thumbnail', entryId: decodeURIComponent(match[1]!) };
  if (url.pathname === '/api/v1/file-entries/download') {
    const hashes = url.searchParams.get('hashes') ?? '';
    // A zip of several entries is built by the server; only one file is on the device as itself.
    if (hashes && !hashes.includes(',')) return { kind: 'download', entryId: hashes };
  }
  return null;
}

// What the server's preview shows as plain text in a sandbox (drive/kinds.ts): anything textual.
const TEXTUAL = /^(text\/|application\/(json|xml|javascript|x-sh|sql)|image\/svg\+xml)/;

function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * The device's answer to a byte route for the user, or null when the device
 * does not hold it. Headers follow the server's: previews inline (text as
 * plain text in a sandbox), downloads as attachments, never sniffed.
 */
export async function offlineResponse(request: Request, route: ByteRoute, userId: string, caches: CacheStore, origin: string): Promise<Response | null> {
  const row = await userDatabase(userId).offlineEntries.get(route.entryId);
  if (!row?.version || row.storedAt === null) return null;
  const cache = await caches.open(offlineCacheName(userId));
  if (route.kind === 'thumbnail') {
    if (!row.thumbnailStored) return null;
    return (await cache.match(thumbnailKey(origin, row.entryId, row.version))) ?? null;
  }
  const stored = await cache.match(blobKey(origin, row.version));
  if (!stored) return null;
  const blob = await stored.blob();
  const mime = row.mime ?? 'application/octet-stream';
  const headers = new Headers({
    'X-Content-Type-Options': 'nosniff',
    'Accept-Ranges': 'bytes',
    ETag: `"${row.version}"`,
    'Cache-Control': 'private, no-cache',
  });
  if (route.kind === 'download') {
    headers.set('Content-Type', mime);
    headers.set('Content-Disposition', contentDisposition('attachment', row.name));
  } else if (TEXTUAL.test(mime)) {
    headers.set('Content-Type', 'text/plain; charset=utf-8');
    headers.set('Content-Security-Policy', "default-src 'none'; sandbox");
    headers.set('Content-Disposition', contentDisposition('inline', row.name));
  } else {
    headers.set('Content-Type', mime);
    headers.set('Content-Disposition', contentDisposition('inline', row.name));
  }
  return rangeOf(request, blob, headers);
}

/** A 206 of the requested range (one range, as media elements ask), a 416 outside the file, else the whole. */
export function rangeOf(request: Request, blob: Blob, headers: Headers): Response {
  const size = blob.size;
  const range = /^bytes=(\d*)-(\d*)$/.exec(request.headers.get('Range')?.trim() ?? '');
  if (!range || (!range[1] && !range[2])) {
    headers.set('Content-Length', String(size));
    return new Response(blob, { status: 200, headers });
  }
  let start: number;
  let end: number;
  if (!range[1]) {
    start = Math.max(0, size - Number(range[2]));
    end = size - 1;
  } else {
    start = Number(range[1]);
    end = range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
  }
  if (start >= size || start > end) {
    headers.set('Content-Range', `bytes */${size}`);
    return new Response(null, { status: 416, headers });
  }
  headers.set('Content-Range', `bytes ${start}-${end}/${size}`);
  headers.set('Content-Length', String(end - start + 1));
  return new Response(blob.slice(start, end + 1), { status: 206, headers });
}
