import { isNotModified, preconditionFailed } from '../drive/http.js';
import { etagOf, type DavResponse } from './props.js';
import type { DavRequest } from './request.js';
import type { Resource } from './resources.js';

/** What the request's URL names now, as HTTP's validators see it: null when nothing is there. */
function representationOf(resource: Resource): { etag: string | null; lastModified: Date | null } | null {
  if (resource.kind === 'missing' || resource.kind === 'orphan') return null;
  if (resource.kind !== 'entry') return { etag: null, lastModified: null };
  return { etag: etagOf(resource.entry), lastModified: new Date(String(resource.entry.updated_at)) };
}

/**
 * HTTP's conditional headers (If-Match, If-None-Match, If-Unmodified-Since)
 * beside WebDAV's own If header: a write on a stale version, or a create
 * over something that exists, is 412 (RFC 9110 §13.1, RFC 4918 §10.4 keeps
 * them). A read whose copy is current is 304.
 */
export function preconditionRefusal(request: DavRequest, resource: Resource): DavResponse | null {
  const safe = request.method === 'GET' || request.method === 'HEAD';
  const current = representationOf(resource);
  if (preconditionFailed(request.headers, current, safe)) return { status: 412 };
  if (safe && current?.etag && current.lastModified && isNotModified(request, current.etag, current.lastModified)) {
    return { status: 304, headers: { ETag: current.etag, 'Last-Modified': current.lastModified.toUTCString() } };
  }
  return null;
}
