import type { Actor } from '../access/actor.js';
import { parseRange } from '../drive/http.js';
import { preconditionRefusal } from './preconditions.js';
import { etagOf, httpDate, type DavResponse } from './props.js';
import { header, type DavContext, type DavRequest } from './request.js';
import { resolve } from './resources.js';

/** GET and HEAD: a file's bytes (one range at most), or a line of text for a collection. */
export async function get({ deps }: DavContext, actor: Actor, request: DavRequest, path: string[]): Promise<DavResponse> {
  const resource = await resolve(deps, actor, path);
  if (resource.kind === 'missing' || resource.kind === 'orphan') return { status: 404 };
  const answered = preconditionRefusal(request, resource);
  if (answered) return answered;
  if (resource.kind !== 'entry' || resource.entry.type === 'folder') {
    return {
      status: 200,
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
      body: request.method === 'HEAD' ? undefined : 'This is a WebDAV collection.\n',
    };
  }
  const entry = resource.entry;
  const size = Number(entry.file_size);
  const headers: Record<string, string> = {
    ETag: etagOf(entry),
    'Last-Modified': httpDate(String(entry.updated_at)),
    'Content-Type': entry.mime ?? 'application/octet-stream',
    'Accept-Ranges': 'bytes',
  };
  const range = parseRange(header(request, 'range'), size);
  if (range.kind === 'unsatisfiable') return { status: 416, headers: { 'Content-Range': `bytes */${size}` } };
  if (request.method === 'HEAD') return { status: 200, headers: { ...headers, 'Content-Length': String(size) } };
  if (range.kind === 'partial') {
    const { start, end } = range.range;
    const { stream } = await deps.drive.readLoaded(actor, entry, range.range);
    return { status: 206, headers: { ...headers, 'Content-Range': `bytes ${start}-${end}/${size}`, 'Content-Length': String(end - start + 1) }, body: stream };
  }
  if (size === 0) {
    await deps.drive.readLoaded(actor, entry).catch(() => undefined);
    return { status: 200, headers: { ...headers, 'Content-Length': '0' }, body: '' };
  }
  // The row resolve just loaded and checked: the download's own check decides on it (no second look-up).
  const { stream } = await deps.drive.readLoaded(actor, entry);
  return { status: 200, headers: { ...headers, 'Content-Length': String(size) }, body: stream };
}

/** PUT: the body streams into the file's new bytes, or into a new file in an existing folder. */
export async function put({ deps, locks }: DavContext, actor: Actor, request: DavRequest, path: string[]): Promise<DavResponse> {
  const resource = await resolve(deps, actor, path);
  if (resource.kind === 'orphan') return { status: 409 };
  if (resource.kind === 'root' || resource.kind === 'top') return { status: 405 };
  if (resource.kind === 'entry' && resource.entry.type === 'folder') return { status: 405 };
  const refusal = preconditionRefusal(request, resource) ?? (await locks.check(actor, request, resource, true));
  if (refusal) return refusal;
  const lengthHeader = header(request, 'content-length');
  const length = lengthHeader !== undefined && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : null;
  const body = { stream: request.stream, length };
  if (resource.kind === 'entry') {
    const { entry } = await deps.uploads.storeWhole(actor, resource.scope, { replace: resource.entry.hash, name: resource.entry.name }, body);
    return { status: 204, headers: { ETag: etagOf(entry) } };
  }
  const parent = resource.parent;
  if (parent.kind === 'root' || (parent.kind === 'top' && parent.top.kind === 'shared')) return { status: 403 };
  if (parent.kind === 'entry' && parent.entry.type !== 'folder') return { status: 409 };
  // A parallel PUT may create the name first: then this one replaces that file's bytes (one file, the last writer wins).
  const { entry, created } = await deps.uploads.storeWhole(
    actor,
    parent.scope,
    parent.kind === 'entry' ? { parentId: parent.entry.hash, parent: parent.entry, name: resource.name } : { parentId: null, name: resource.name },
    body,
  );
  return { status: created ? 201 : 204, headers: { ETag: etagOf(entry) } };
}
