import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { HttpError } from '../../lib/errors.js';
import { addMs, nowIso } from '../../lib/time.js';
import { userIdOf, type Actor } from '../access/actor.js';
import type { ResolvedScope } from '../access/scope.js';
import type { DriveFacade } from '../drive/facade.js';
import type { UploadsService } from '../uploads/service.js';
import { etagMatches, IfHeaderError, parseIfHeader, submittedTokens, type ConditionList } from './conditions.js';
import { activeLockXml, davError, etagOf, multistatus, propfindResponse, type DavResponse, type PropRequest } from './props.js';

export type { DavResponse };
import type { DavLock, WebDavRepository } from './repository.js';
import { BadPath, lockKey, resolve, segmentsOf, topsOf, sharedEntries, type Collection, type Resource, type ResolveDeps } from './resources.js';
import { childOf, childrenOf, DAV, elementsOf, rawXml, XmlError, type XmlElement } from './xml.js';

export const DAV_PREFIX = '/dav';
const MAX_TIMEOUT = 3600;

export interface DavRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** The host (and port) the request was sent to, as the client named it. */
  host: string;
  /** The body, for PUT a stream. */
  stream: Readable;
  /**
   * The body of an XML method (small, capped), parsed as it arrives: null when
   * empty. Throws XmlError: 'malformed' (a 400) or 'too-large' (a 413).
   */
  xml: () => Promise<XmlElement | null>;
  /** Whether the body has any bytes (they are read and dropped). */
  hasBody: () => Promise<boolean>;
}

export interface WebDavDeps extends ResolveDeps {
  drive: ResolveDeps['drive'] & Pick<DriveFacade, 'children' | 'usage' | 'read' | 'createFolder' | 'moveTo' | 'copyTo' | 'moveToTrash'>;
  uploads: Pick<UploadsService, 'storeWhole'>;
  repo: WebDavRepository;
  /** The site's public address: a COPY or MOVE to any other server is refused. */
  siteUrl: () => Promise<string>;
}

const header = (request: DavRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

const fail = (status: number, condition?: string): DavResponse => ({ status, ...(condition ? davError(condition) : {}) });

/**
 * WebDAV (RFC 4918 class 1 and 2) over the drive: every path is resolved to
 * an entry by name and every read and write goes through the drive's facade
 * and uploads, so the access policy, quota and restrictions are the REST
 * API's. What is WebDAV's own — locks, the If header, dead properties — is here.
 */
export class WebDavService {
  constructor(private readonly deps: WebDavDeps) {}

  async handle(actor: Actor, request: DavRequest): Promise<DavResponse> {
    let path: string[];
    try {
      path = segmentsOf(request.url, DAV_PREFIX);
    } catch (error) {
      if (error instanceof BadPath) return { status: 400 };
      throw error;
    }
    try {
      switch (request.method) {
        case 'OPTIONS':
          return {
            status: 200,
            headers: { DAV: '1, 2', 'MS-Author-Via': 'DAV', Allow: 'OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, PROPPATCH, MKCOL, COPY, MOVE, LOCK, UNLOCK' },
          };
        case 'GET':
        case 'HEAD':
          return await this.get(actor, request, path);
        case 'PROPFIND':
          return await this.propfind(actor, request, path);
        case 'PROPPATCH':
          return await this.proppatch(actor, request, path);
        case 'PUT':
          return await this.put(actor, request, path);
        case 'MKCOL':
          return await this.mkcol(actor, request, path);
        case 'DELETE':
          return await this.delete(actor, request, path);
        case 'COPY':
        case 'MOVE':
          return await this.copyMove(actor, request, path, request.method === 'MOVE');
        case 'LOCK':
          return await this.lock(actor, request, path);
        case 'UNLOCK':
          return await this.unlock(actor, request, path);
        default:
          return { status: 405 };
      }
    } catch (error) {
      if (error instanceof XmlError) return { status: error.reason === 'too-large' ? 413 : 400 };
      if (error instanceof IfHeaderError) return { status: 400 };
      if (error instanceof HttpError) {
        // The policy's 404 hides what the caller may not see; 422 (a name or a move the drive refuses) is a 403 here.
        const status = error.statusCode === 422 ? 403 : error.statusCode;
        return { status, headers: error.headers };
      }
      throw error;
    }
  }

  // Reading

  private async get(actor: Actor, request: DavRequest, path: string[]): Promise<DavResponse> {
    const resource = await resolve(this.deps, actor, path);
    if (resource.kind === 'missing' || resource.kind === 'orphan') return { status: 404 };
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
      'Last-Modified': new Date(String(entry.updated_at)).toUTCString(),
      'Content-Type': entry.mime ?? 'application/octet-stream',
      'Accept-Ranges': 'bytes',
    };
    const range = parseRange(header(request, 'range'), size);
    if (range === 'unsatisfiable') return { status: 416, headers: { 'Content-Range': `bytes */${size}` } };
    if (request.method === 'HEAD') return { status: 200, headers: { ...headers, 'Content-Length': String(size) } };
    if (range && size > 0) {
      const { stream } = await this.deps.drive.read(actor, entry.hash, range);
      return {
        status: 206,
        headers: { ...headers, 'Content-Range': `bytes ${range.start}-${range.end}/${size}`, 'Content-Length': String(range.end - range.start + 1) },
        body: stream,
      };
    }
    if (size === 0) {
      await this.deps.drive.read(actor, entry.hash).catch(() => undefined);
      return { status: 200, headers: { ...headers, 'Content-Length': '0' }, body: '' };
    }
    const { stream } = await this.deps.drive.read(actor, entry.hash);
    return { status: 200, headers: { ...headers, 'Content-Length': String(size) }, body: stream };
  }

  private async propfind(actor: Actor, request: DavRequest, path: string[]): Promise<DavResponse> {
    const depth = header(request, 'depth') ?? 'infinity';
    if (depth !== '0' && depth !== '1') return fail(403, 'propfind-finite-depth');
    const root = await request.xml();
    let wanted: PropRequest = { kind: 'allprop' };
    if (root) {
      if (root.ns !== DAV || root.name !== 'propfind') return { status: 400 };
      const prop = childOf(root, DAV, 'prop');
      if (childOf(root, DAV, 'propname')) wanted = { kind: 'propname' };
      else if (prop) wanted = { kind: 'prop', names: elementsOf(prop).map((c) => ({ ns: c.ns, name: c.name })) };
      else if (!childOf(root, DAV, 'allprop')) return { status: 400 };
    }
    const resource = await resolve(this.deps, actor, path);
    if (resource.kind === 'missing' || resource.kind === 'orphan') return { status: 404 };
    const members: Collection[] = [resource];
    if (depth === '1') members.push(...(await this.membersOf(actor, resource)));
    const entryIds = members.flatMap((m) => (m.kind === 'entry' ? [m.entry.id] : []));
    const dead = await this.deps.repo.properties(entryIds);
    const usage =
      resource.kind === 'root'
        ? null
        : await this.deps.drive.usage(
            actor,
            resource.kind === 'entry' ? { ownerId: resource.entry.owner_id, workspaceId: resource.entry.workspace_id } : resource.scope,
          );
    const locks = await this.locksFor(actor, members);
    return multistatus(members.map((member) => propfindResponse(DAV_PREFIX, member, wanted, { dead, usage, locks: locks.get(member.path.join('/')) ?? [] })));
  }

  private async membersOf(actor: Actor, resource: Collection): Promise<Collection[]> {
    if (resource.kind === 'root') {
      const tops = await topsOf(this.deps, actor);
      const result: Collection[] = [];
      for (const top of tops)
        result.push({ kind: 'top', top, scope: await this.deps.scope(actor, top.kind === 'space' ? top.workspaceId : null), path: [top.name] });
      return result;
    }
    if (resource.kind === 'top' && resource.top.kind === 'shared') {
      return (await sharedEntries(this.deps, actor)).map(({ name, entry }) => ({
        kind: 'entry',
        entry,
        scope: resource.scope,
        top: resource.top,
        path: [...resource.path, name],
      }));
    }
    if (resource.kind === 'entry' && resource.entry.type !== 'folder') return [];
    const children = await this.deps.drive.children(actor, resource.scope, resource.kind === 'entry' ? resource.entry.hash : null);
    const top = resource.top;
    return children.map((entry) => ({ kind: 'entry', entry, scope: resource.scope, top, path: [...resource.path, entry.name] }));
  }

  private async proppatch(actor: Actor, request: DavRequest, path: string[]): Promise<DavResponse> {
    const root = await request.xml();
    if (!root || root.ns !== DAV || root.name !== 'propertyupdate') return { status: 400 };
    const resource = await resolve(this.deps, actor, path);
    if (resource.kind === 'missing' || resource.kind === 'orphan') return { status: 404 };
    if (resource.kind !== 'entry') return { status: 403 };
    await this.deps.drive.entry(actor, 'files.update', resource.entry.hash);
    const refusal = await this.checkLocks(actor, request, resource, false);
    if (refusal) return refusal;
    const changes: Parameters<WebDavRepository['patchProperties']>[1] = [];
    const names: { ns: string; name: string }[] = [];
    for (const instruction of elementsOf(root)) {
      if (instruction.ns !== DAV || (instruction.name !== 'set' && instruction.name !== 'remove')) continue;
      for (const prop of childrenOf(instruction, DAV, 'prop')) {
        for (const property of elementsOf(prop)) {
          names.push({ ns: property.ns, name: property.name });
          if (instruction.name === 'set') changes.push({ op: 'set', property: { ns: property.ns, name: property.name, xml: rawXml(property) } });
          else changes.push({ op: 'remove', ns: property.ns, name: property.name });
        }
      }
    }
    // Live properties are the drive's: setting one fails the whole request (all or nothing).
    const live = names.filter((n) => n.ns === DAV);
    if (live.length) {
      return multistatus([
        {
          href: resource.path,
          collection: resource.entry.type === 'folder',
          propstats: [
            { status: 403, props: live.map((n) => ({ ...n })) },
            { status: 424, props: names.filter((n) => n.ns !== DAV) },
          ],
        },
      ]);
    }
    await this.deps.repo.patchProperties(resource.entry.id, changes);
    return multistatus([{ href: resource.path, collection: resource.entry.type === 'folder', propstats: [{ status: 200, props: names }] }]);
  }

  // Writing

  private async put(actor: Actor, request: DavRequest, path: string[]): Promise<DavResponse> {
    const resource = await resolve(this.deps, actor, path);
    if (resource.kind === 'orphan') return { status: 409 };
    if (resource.kind === 'root' || resource.kind === 'top') return { status: 405 };
    if (resource.kind === 'entry' && resource.entry.type === 'folder') return { status: 405 };
    const refusal = await this.checkLocks(actor, request, resource, true);
    if (refusal) return refusal;
    const lengthHeader = header(request, 'content-length');
    const length = lengthHeader !== undefined && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : null;
    const body = { stream: request.stream, length };
    if (resource.kind === 'entry') {
      await this.deps.uploads.storeWhole(actor, resource.scope, { replace: resource.entry.hash, name: resource.entry.name }, body);
    } else {
      const parent = resource.parent;
      if (parent.kind === 'root' || (parent.kind === 'top' && parent.top.kind === 'shared')) return { status: 403 };
      if (parent.kind === 'entry' && parent.entry.type !== 'folder') return { status: 409 };
      await this.deps.uploads.storeWhole(actor, parent.scope, { parentId: parent.kind === 'entry' ? parent.entry.hash : null, name: resource.name }, body);
    }
    const stored = await resolve(this.deps, actor, path);
    return { status: resource.kind === 'entry' ? 204 : 201, headers: stored.kind === 'entry' ? { ETag: etagOf(stored.entry) } : {} };
  }

  private async mkcol(actor: Actor, request: DavRequest, path: string[]): Promise<DavResponse> {
    if (await request.hasBody()) return { status: 415 };
    const resource = await resolve(this.deps, actor, path);
    if (resource.kind === 'orphan') return { status: 409 };
    if (resource.kind !== 'missing') return { status: 405 };
    const parent = resource.parent;
    if (parent.kind === 'root' || (parent.kind === 'top' && parent.top.kind === 'shared')) return { status: 403 };
    if (parent.kind === 'entry' && parent.entry.type !== 'folder') return { status: 409 };
    const refusal = await this.checkLocks(actor, request, resource, true);
    if (refusal) return refusal;
    await this.deps.drive.createFolder(actor, parent.scope, parent.kind === 'entry' ? parent.entry.hash : null, resource.name);
    return { status: 201 };
  }

  private async delete(actor: Actor, request: DavRequest, path: string[]): Promise<DavResponse> {
    const resource = await resolve(this.deps, actor, path);
    if (resource.kind === 'missing' || resource.kind === 'orphan') return { status: 404 };
    if (resource.kind !== 'entry') return { status: 403 };
    if (path.includes('#') || request.url.includes('#')) return { status: 400 };
    const refusal = await this.checkLocks(actor, request, resource, true, true);
    if (refusal) return refusal;
    await this.deps.drive.moveToTrash(actor, resource.scope, resource.entry.hash);
    await this.deps.repo.deleteLocksUnder(this.keyOf(actor, resource));
    return { status: 204 };
  }

  private async copyMove(actor: Actor, request: DavRequest, path: string[], move: boolean): Promise<DavResponse> {
    const destinationHeader = header(request, 'destination');
    if (!destinationHeader) return { status: 400 };
    let destinationPath: string[];
    try {
      const destination = new URL(destinationHeader, 'http://localhost');
      // A copy on another server is not ours to make (RFC 4918 §9.8.5): never make it here instead.
      if (URL.canParse(destinationHeader) && !(await this.onThisServer(destination, request.host))) return { status: 502 };
      destinationPath = segmentsOf(destination.pathname, DAV_PREFIX);
    } catch (error) {
      if (error instanceof BadPath || error instanceof TypeError) return fail(400);
      throw error;
    }
    const source = await resolve(this.deps, actor, path);
    if (source.kind === 'missing' || source.kind === 'orphan') return { status: 404 };
    if (source.kind !== 'entry') return { status: 403 };
    if (destinationPath.join('/') === path.join('/')) return { status: 403 };
    const depth = header(request, 'depth') ?? 'infinity';
    if (move && depth !== 'infinity') return { status: 400 };
    const shallow = !move && source.entry.type === 'folder' && depth === '0';
    const overwrite = (header(request, 'overwrite') ?? 'T').toUpperCase() !== 'F';
    let destination = await resolve(this.deps, actor, destinationPath);
    if (destination.kind === 'orphan') return { status: 409 };
    if (destination.kind === 'root' || destination.kind === 'top') return { status: 403 };
    if (move) {
      const refusal = await this.checkLocks(actor, request, source, true, true);
      if (refusal) return refusal;
    }
    const refusal = await this.checkLocks(actor, request, destination, true, true);
    if (refusal) return refusal;
    let replaced = false;
    if (destination.kind === 'entry') {
      if (!overwrite) return { status: 412 };
      await this.deps.drive.moveToTrash(actor, destination.scope, destination.entry.hash);
      await this.deps.repo.deleteLocksUnder(this.keyOf(actor, destination));
      replaced = true;
      destination = await resolve(this.deps, actor, destinationPath);
    }
    if (destination.kind !== 'missing') return { status: 409 };
    const parent = destination.parent;
    if (parent.kind === 'root' || (parent.kind === 'top' && parent.top.kind === 'shared')) return { status: 403 };
    if (parent.kind === 'entry' && parent.entry.type !== 'folder') return { status: 409 };
    const parentHash = parent.kind === 'entry' ? parent.entry.hash : null;
    if (move) {
      await this.deps.drive.moveTo(actor, parent.scope, source.entry.hash, parentHash, destination.name);
      await this.deps.repo.deleteLocksUnder(this.keyOf(actor, source));
    } else if (shallow) {
      // A collection copied with Depth 0 is the collection without its members.
      await this.deps.drive.entry(actor, 'files.download', source.entry.hash);
      await this.deps.drive.createFolder(actor, parent.scope, parentHash, destination.name);
    } else {
      await this.deps.drive.copyTo(actor, parent.scope, source.entry.hash, parentHash, destination.name);
    }
    return { status: replaced ? 204 : 201 };
  }

  /**
   * Whether an absolute address names this server: the host the request was
   * sent to, or the site's public address (a proxy may pass another Host on).
   * Ports count when both name one.
   */
  private async onThisServer(url: URL, requestHost: string): Promise<boolean> {
    const ours = [await this.deps.siteUrl()];
    if (requestHost) ours.push(`${url.protocol}//${requestHost}`);
    return ours.some((address) => {
      if (!URL.canParse(address)) return false;
      const host = new URL(address);
      return host.hostname === url.hostname && (host.port === url.port || !host.port || !url.port);
    });
  }

  // Locks

  private keyOf(actor: Actor, resource: Resource): string {
    const top =
      resource.kind === 'entry' || resource.kind === 'top'
        ? resource.top
        : resource.kind === 'missing' && resource.parent.kind !== 'root'
          ? resource.parent.top
          : null;
    const scope =
      resource.kind === 'entry' || resource.kind === 'top'
        ? resource.scope
        : resource.kind === 'missing' && resource.parent.kind !== 'root'
          ? resource.parent.scope
          : null;
    return lockKey(top, userIdOf(actor), scope?.ownerId ?? null, resource.path);
  }

  private ancestorKeys(key: string): string[] {
    const parts = key.split('/');
    return parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join('/'));
  }

  /** Live locks that apply to a resource: on itself, on an ancestor with depth infinity, and (withMembers) on its direct parent. */
  private async applicableLocks(key: string, options: { parent: boolean; below: boolean }): Promise<DavLock[]> {
    const ancestors = this.ancestorKeys(key);
    const parentKey = ancestors.at(-1);
    const locks = await this.deps.repo.locksAround(key, ancestors);
    return locks.filter((lock) => {
      if (lock.resource === key) return true;
      if (ancestors.includes(lock.resource)) return lock.depth === 'infinity' || (options.parent && lock.resource === parentKey);
      return options.below;
    });
  }

  private async locksFor(actor: Actor, members: Collection[]): Promise<Map<string, DavLock[]>> {
    const result = new Map<string, DavLock[]>();
    for (const member of members) {
      if (member.kind === 'root') continue;
      result.set(member.path.join('/'), await this.applicableLocks(this.keyOf(actor, member), { parent: false, below: false }));
    }
    return result;
  }

  /**
   * The If header and the locks in the way of a write: 412 when the header's
   * conditions all fail, 423 when a lock applies and none of its tokens was
   * submitted by its owner. `membership`: the write adds or removes a member
   * of the parent collection, so the parent's own lock applies too.
   */
  private async checkLocks(actor: Actor, request: DavRequest, resource: Resource, membership: boolean, below = false): Promise<DavResponse | null> {
    const key = this.keyOf(actor, resource);
    const ifHeader = header(request, 'if');
    const lists = ifHeader ? parseIfHeader(ifHeader) : [];
    if (lists.length && !(await this.evaluate(actor, lists, resource, key))) return { status: 412 };
    const submitted = new Set(submittedTokens(lists));
    const locks = await this.applicableLocks(key, { parent: membership, below });
    const userId = userIdOf(actor);
    const blocking = locks.filter((lock) => !(submitted.has(lock.token) && lock.userId === userId));
    // Shared locks: holding any one of them is enough; an exclusive lock needs its own token.
    const holdsShared = locks.some((lock) => lock.scope === 'shared' && submitted.has(lock.token) && lock.userId === userId);
    const stillBlocking = blocking.filter((lock) => !(lock.scope === 'shared' && holdsShared));
    return stillBlocking.length ? fail(423, 'lock-token-submitted') : null;
  }

  private async evaluate(actor: Actor, lists: ConditionList[], resource: Resource, key: string): Promise<boolean> {
    for (const list of lists) {
      let target = resource;
      let targetKey = key;
      if (list.resource) {
        try {
          const path = segmentsOf(new URL(list.resource, 'http://localhost').pathname, DAV_PREFIX);
          target = await resolve(this.deps, actor, path);
          targetKey = this.keyOf(actor, target);
        } catch {
          continue;
        }
      }
      const locks = await this.applicableLocks(targetKey, { parent: false, below: false });
      const etag = target.kind === 'entry' ? etagOf(target.entry) : null;
      const holds = list.conditions.every((condition) => {
        const truth = condition.kind === 'token' ? locks.some((lock) => lock.token === condition.value) : etagMatches(condition.value, etag);
        return condition.not ? !truth : truth;
      });
      if (holds) return true;
    }
    return false;
  }

  private async lock(actor: Actor, request: DavRequest, path: string[]): Promise<DavResponse> {
    const info = await request.xml();
    const timeout = parseTimeout(header(request, 'timeout'));
    let resource = await resolve(this.deps, actor, path);
    if (resource.kind === 'orphan') return { status: 409 };
    if (resource.kind === 'root' || resource.kind === 'top') return { status: 403 };
    const key = this.keyOf(actor, resource);
    if (!info) {
      // A refresh: the token comes in the If header and must lock this resource.
      const lists = parseIfHeader(header(request, 'if') ?? '');
      const tokens = submittedTokens(lists);
      const locks = await this.applicableLocks(key, { parent: false, below: false });
      const lock = locks.find((l) => tokens.includes(l.token) && l.userId === userIdOf(actor));
      if (!lock) return fail(412, 'lock-token-matches-request-uri');
      const expiresAt = addMs(nowIso(), timeout * 1000);
      await this.deps.repo.refreshLock(lock.token, timeout, expiresAt);
      return this.lockAnswer({ ...lock, timeoutSeconds: timeout, expiresAt }, path, 200, false);
    }
    if (info.ns !== DAV || info.name !== 'lockinfo') return { status: 400 };
    const scope = childOf(childOf(info, DAV, 'lockscope') ?? info, DAV, 'shared') ? 'shared' : 'exclusive';
    const ownerElement: XmlElement | undefined = childOf(info, DAV, 'owner');
    const depthHeader = header(request, 'depth') ?? 'infinity';
    if (depthHeader !== '0' && depthHeader !== 'infinity') return { status: 400 };
    const depth = resource.kind === 'entry' && resource.entry.type === 'folder' ? depthHeader : '0';
    const conflicts = (await this.applicableLocks(key, { parent: false, below: depth === 'infinity' })).filter(
      (l) => l.scope === 'exclusive' || scope === 'exclusive',
    );
    if (conflicts.length) return fail(423, 'no-conflicting-lock');
    let status = 200;
    if (resource.kind === 'missing') {
      // Locking an unmapped URL creates an empty file (RFC 4918 §7.3).
      if (resource.parent.kind === 'root' || (resource.parent.kind === 'top' && resource.parent.top.kind === 'shared')) return { status: 403 };
      const refusal = await this.checkLocks(actor, request, resource, true);
      if (refusal) return refusal;
      const parent = resource.parent;
      await this.deps.uploads.storeWhole(
        actor,
        parent.scope,
        { parentId: parent.kind === 'entry' ? parent.entry.hash : null, name: resource.name },
        { stream: Readable.from([]), length: 0 },
      );
      resource = await resolve(this.deps, actor, path);
      status = 201;
    } else if (resource.kind === 'entry') {
      await this.deps.drive.entry(actor, 'files.update', resource.entry.hash);
    }
    const lock: DavLock = {
      token: `opaquelocktoken:${randomUUID()}`,
      userId: userIdOf(actor),
      resource: key,
      depth,
      scope,
      owner: ownerElement ? rawXml(ownerElement) : null,
      timeoutSeconds: timeout,
      expiresAt: addMs(nowIso(), timeout * 1000),
    };
    await this.deps.repo.insertLock(lock);
    return this.lockAnswer(lock, path, status, true);
  }

  private lockAnswer(lock: DavLock, path: string[], status: number, created: boolean): DavResponse {
    const discovery = `<?xml version="1.0" encoding="utf-8"?>\n<D:prop xmlns:D="DAV:"><D:lockdiscovery>${activeLockXml(lock, DAV_PREFIX, path)}</D:lockdiscovery></D:prop>`;
    return { status, headers: { 'Content-Type': 'application/xml; charset=utf-8', ...(created ? { 'Lock-Token': `<${lock.token}>` } : {}) }, body: discovery };
  }

  private async unlock(actor: Actor, request: DavRequest, path: string[]): Promise<DavResponse> {
    const token = /^<([^>]+)>$/.exec((header(request, 'lock-token') ?? '').trim())?.[1];
    if (!token) return { status: 400 };
    const resource = await resolve(this.deps, actor, path);
    if (resource.kind === 'missing' || resource.kind === 'orphan') return { status: 404 };
    const locks = await this.applicableLocks(this.keyOf(actor, resource), { parent: false, below: false });
    const lock = locks.find((l) => l.token === token);
    if (!lock) return fail(409, 'lock-token-matches-request-uri');
    if (lock.userId !== userIdOf(actor)) return { status: 403 };
    await this.deps.repo.deleteLock(token);
    return { status: 204 };
  }
}

function parseTimeout(value: string | undefined): number {
  for (const part of (value ?? '').split(',')) {
    const match = /^\s*Second-(\d+)\s*$/i.exec(part);
    if (match) return Math.max(1, Math.min(MAX_TIMEOUT, Number(match[1])));
  }
  return MAX_TIMEOUT;
}

/** One byte range (`bytes=a-b`, `a-`, `-n`), null for none or one we do not serve (multiple ranges: the whole file). */
function parseRange(value: string | undefined, size: number): { start: number; end: number } | null | 'unsatisfiable' {
  if (!value) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(value.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  let start: number;
  let end: number;
  if (match[1] === '') {
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

export type { ResolvedScope };
