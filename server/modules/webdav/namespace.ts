import type { Actor } from '../access/actor.js';
import { preconditionRefusal } from './preconditions.js';
import type { DavResponse } from './props.js';
import { DAV_PREFIX, fail, header, type DavContext, type DavRequest } from './request.js';
import { BadPath, resolve, segmentsOf } from './resources.js';

/** MKCOL: a new folder at a free name in an existing one (no body: RFC 4918 §9.3). */
export async function mkcol({ deps, locks }: DavContext, actor: Actor, request: DavRequest, path: string[]): Promise<DavResponse> {
  if (await request.hasBody()) return { status: 415 };
  const resource = await resolve(deps, actor, path);
  if (resource.kind === 'orphan') return { status: 409 };
  if (resource.kind !== 'missing') return { status: 405 };
  const parent = resource.parent;
  if (parent.kind === 'root' || (parent.kind === 'top' && parent.top.kind === 'shared')) return { status: 403 };
  if (parent.kind === 'entry' && parent.entry.type !== 'folder') return { status: 409 };
  const refusal = await locks.check(actor, request, resource, true);
  if (refusal) return refusal;
  await deps.drive.createFolder(actor, parent.scope, parent.kind === 'entry' ? parent.entry.hash : null, resource.name);
  return { status: 201 };
}

/** DELETE: the entry goes to the trash, as in the app, and the locks on and below it go. */
export async function remove({ deps, locks }: DavContext, actor: Actor, request: DavRequest, path: string[]): Promise<DavResponse> {
  const resource = await resolve(deps, actor, path);
  if (resource.kind === 'missing' || resource.kind === 'orphan') return { status: 404 };
  if (resource.kind !== 'entry') return { status: 403 };
  if (path.includes('#') || request.url.includes('#')) return { status: 400 };
  const refusal = preconditionRefusal(request, resource) ?? (await locks.check(actor, request, resource, true, true));
  if (refusal) return refusal;
  await deps.drive.moveToTrash(actor, resource.scope, resource.entry.hash);
  await deps.repo.deleteLocksUnder(locks.targetOf(actor, resource));
  return { status: 204 };
}

/** COPY and MOVE to a Destination on this server; Overwrite: T trashes what is there first. */
export async function copyOrMove({ deps, locks }: DavContext, actor: Actor, request: DavRequest, path: string[], move: boolean): Promise<DavResponse> {
  const destinationHeader = header(request, 'destination');
  if (!destinationHeader) return { status: 400 };
  let destinationPath: string[];
  try {
    const destination = new URL(destinationHeader, 'http://localhost');
    // A copy on another server is not ours to make (RFC 4918 §9.8.5): never make it here instead.
    if (URL.canParse(destinationHeader) && !onThisServer(destination, request.host, await deps.siteUrl())) return { status: 502 };
    destinationPath = segmentsOf(destination.pathname, DAV_PREFIX);
  } catch (error) {
    if (error instanceof BadPath || error instanceof TypeError) return fail(400);
    throw error;
  }
  const source = await resolve(deps, actor, path);
  if (source.kind === 'missing' || source.kind === 'orphan') return { status: 404 };
  if (source.kind !== 'entry') return { status: 403 };
  if (destinationPath.join('/') === path.join('/')) return { status: 403 };
  const stale = preconditionRefusal(request, source);
  if (stale) return stale;
  const depth = header(request, 'depth') ?? 'infinity';
  if (move && depth !== 'infinity') return { status: 400 };
  const shallow = !move && source.entry.type === 'folder' && depth === '0';
  const overwrite = (header(request, 'overwrite') ?? 'T').toUpperCase() !== 'F';
  let destination = await resolve(deps, actor, destinationPath);
  if (destination.kind === 'orphan') return { status: 409 };
  if (destination.kind === 'root' || destination.kind === 'top') return { status: 403 };
  if (move) {
    const refusal = await locks.check(actor, request, source, true, true);
    if (refusal) return refusal;
  }
  const refusal = await locks.check(actor, request, destination, true, true);
  if (refusal) return refusal;
  let replaced = false;
  if (destination.kind === 'entry') {
    if (!overwrite) return { status: 412 };
    if (
      move &&
      source.entry.type !== 'folder' &&
      destination.entry.type !== 'folder' &&
      source.entry.owner_id === destination.entry.owner_id &&
      (source.entry.workspace_id ?? null) === (destination.entry.workspace_id ?? null)
    ) {
      // A file saved over another (a temporary file moved onto the real one): the destination keeps its history.
      await deps.drive.moveOnto(actor, source.entry.hash, destination.entry.hash);
      // The source is gone, and the destination was replaced as the overwrite would have: their locks go.
      await deps.repo.deleteLocksUnder(locks.targetOf(actor, source));
      await deps.repo.deleteLocksUnder(locks.targetOf(actor, destination));
      return { status: 204 };
    }
    await deps.drive.moveToTrash(actor, destination.scope, destination.entry.hash);
    await deps.repo.deleteLocksUnder(locks.targetOf(actor, destination));
    replaced = true;
    destination = await resolve(deps, actor, destinationPath);
  }
  if (destination.kind !== 'missing') return { status: 409 };
  const parent = destination.parent;
  if (parent.kind === 'root' || (parent.kind === 'top' && parent.top.kind === 'shared')) return { status: 403 };
  if (parent.kind === 'entry' && parent.entry.type !== 'folder') return { status: 409 };
  const parentHash = parent.kind === 'entry' ? parent.entry.hash : null;
  if (move) {
    await deps.drive.moveTo(actor, parent.scope, source.entry.hash, parentHash, destination.name);
    // Locks stay behind on a MOVE (RFC 4918 §9.9.4): the moved entry's, and those below it at its new path.
    const moved = await resolve(deps, actor, destinationPath);
    const before = locks.targetOf(actor, source);
    await deps.repo.deleteLocksUnder(moved.kind === 'entry' ? { ...before, path: moved.entry.path } : before);
  } else if (shallow) {
    // A collection copied with Depth 0 is the collection without its members.
    await deps.drive.entry(actor, 'files.download', source.entry.hash);
    await deps.drive.createFolder(actor, parent.scope, parentHash, destination.name);
    const made = await resolve(deps, actor, destinationPath);
    if (made.kind === 'entry') await deps.repo.copyProperties([[source.entry.id, made.entry.id]]);
  } else {
    await deps.repo.copyProperties(await deps.drive.copyTo(actor, parent.scope, source.entry.hash, parentHash, destination.name));
  }
  return { status: replaced ? 204 : 201 };
}

/**
 * Whether an absolute address names this server: the host the request was
 * sent to, or the site's public address (a proxy may pass another Host on).
 * Ports count when both name one.
 */
function onThisServer(url: URL, requestHost: string, siteUrl: string): boolean {
  const ours = [siteUrl];
  if (requestHost) ours.push(`${url.protocol}//${requestHost}`);
  return ours.some((address) => {
    if (!URL.canParse(address)) return false;
    const host = new URL(address);
    return host.hostname === url.hostname && (host.port === url.port || !host.port || !url.port);
  });
}
