import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { addMs, nowIso } from '../../lib/time.js';
import { userIdOf, type Actor } from '../access/actor.js';
import { parseIfHeader, submittedTokens } from './conditions.js';
import { activeLockXml, type DavResponse } from './props.js';
import { folderLockKey } from '../../db/locks.js';
import type { DavLock, LockTarget, WebDavRepository } from './repository.js';
import { DAV_PREFIX, fail, header, type DavContext, type DavRequest } from './request.js';
import { resolve, type Resource } from './resources.js';
import { childOf, DAV, rawXml, type XmlElement } from './xml.js';

const MAX_TIMEOUT = 3600;

/** LOCK: a new lock (creating an empty file at an unmapped URL), or the refresh of one the caller holds. */
export async function lock({ deps, locks }: DavContext, actor: Actor, request: DavRequest, path: string[]): Promise<DavResponse> {
  const info = await request.xml();
  const timeout = parseTimeout(header(request, 'timeout'));
  let resource = await resolve(deps, actor, path);
  if (resource.kind === 'orphan') return { status: 409 };
  if (resource.kind === 'root' || resource.kind === 'top') return { status: 403 };
  let key = locks.targetOf(actor, resource);
  if (!info) {
    // A refresh: the token comes in the If header and must lock this resource.
    const lists = parseIfHeader(header(request, 'if') ?? '');
    const tokens = submittedTokens(lists);
    const held = (await locks.applicable(key, { parent: false, below: false })).find((l) => tokens.includes(l.token) && l.userId === userIdOf(actor));
    if (!held) return fail(412, 'lock-token-matches-request-uri');
    const expiresAt = addMs(nowIso(), timeout * 1000);
    await deps.repo.refreshLock(held.token, timeout, expiresAt);
    return lockAnswer({ ...held, timeoutSeconds: timeout, expiresAt }, path, 200, false);
  }
  if (info.ns !== DAV || info.name !== 'lockinfo') return { status: 400 };
  const scope = childOf(childOf(info, DAV, 'lockscope') ?? info, DAV, 'shared') ? 'shared' : 'exclusive';
  const ownerElement: XmlElement | undefined = childOf(info, DAV, 'owner');
  const depthHeader = header(request, 'depth') ?? 'infinity';
  if (depthHeader !== '0' && depthHeader !== 'infinity') return { status: 400 };
  const depth = resource.kind === 'entry' && resource.entry.type === 'folder' ? depthHeader : '0';
  const conflicts = async (target: LockTarget, repo?: WebDavRepository) =>
    (await locks.applicable(target, { parent: false, below: depth === 'infinity' }, repo)).some((l) => l.scope === 'exclusive' || scope === 'exclusive');
  let status = 200;
  if (resource.kind === 'missing') {
    // Looked at before the empty file is made, so a refused LOCK makes nothing; decided again below, serialised.
    if (await conflicts(key)) return fail(423, 'no-conflicting-lock');
    // Locking an unmapped URL creates an empty file (RFC 4918 §7.3).
    if (resource.parent.kind === 'root' || (resource.parent.kind === 'top' && resource.parent.top.kind === 'shared')) return { status: 403 };
    const refusal = await locks.check(actor, request, resource, true);
    if (refusal) return refusal;
    const parent = resource.parent;
    // A PUT that made the file meanwhile keeps its bytes: the lock is then that file's, as on any existing resource.
    const { created } = await deps.uploads.storeWhole(
      actor,
      parent.scope,
      { parentId: parent.kind === 'entry' ? parent.entry.hash : null, name: resource.name, ifTaken: 'keep' },
      { stream: Readable.from([]), length: 0 },
    );
    resource = await resolve(deps, actor, path);
    status = created ? 201 : 200;
    // Created: from here on the lock is the new file's.
    key = locks.targetOf(actor, resource);
  } else if (resource.kind === 'entry') {
    await deps.drive.entry(actor, 'files.update', resource.entry.hash);
  }
  const created: DavLock = {
    token: `opaquelocktoken:${randomUUID()}`,
    userId: userIdOf(actor),
    resource: key.key,
    entryId: key.entryId,
    depth,
    scope,
    owner: ownerElement ? rawXml(ownerElement) : null,
    timeoutSeconds: timeout,
    expiresAt: addMs(nowIso(), timeout * 1000),
  };
  // Two LOCKs at once (on one resource, or on a folder with Depth infinity and a member of it) must not both find
  // no conflict: the look and the insert are serialised with every other grant in the space.
  const granted = await deps.repo.serialisedGrant(spaceKeyOf(resource), async (repo) => {
    if (await conflicts(key, repo)) return false;
    await repo.insertLock(created);
    return true;
  });
  if (!granted) return fail(423, 'no-conflicting-lock');
  return lockAnswer(created, path, status, true);
}

/** UNLOCK: only the lock's owner may remove it, by its token. */
export async function unlock({ deps, locks }: DavContext, actor: Actor, request: DavRequest, path: string[]): Promise<DavResponse> {
  const token = /^<([^>]+)>$/.exec((header(request, 'lock-token') ?? '').trim())?.[1];
  if (!token) return { status: 400 };
  const resource = await resolve(deps, actor, path);
  if (resource.kind === 'missing' || resource.kind === 'orphan') return { status: 404 };
  const found = (await locks.applicable(locks.targetOf(actor, resource), { parent: false, below: false })).find((l) => l.token === token);
  if (!found) return fail(409, 'lock-token-matches-request-uri');
  if (found.userId !== userIdOf(actor)) return { status: 403 };
  await deps.repo.deleteLock(token);
  return { status: 204 };
}

/** The key grants in a resource's space are serialised on. */
function spaceKeyOf(resource: Resource): number {
  const scope = resource.kind === 'entry' ? resource.scope : resource.kind === 'missing' && resource.parent.kind !== 'root' ? resource.parent.scope : null;
  return scope ? folderLockKey(scope, null) : 0;
}

function lockAnswer(lock: DavLock, path: string[], status: number, created: boolean): DavResponse {
  const discovery = `<?xml version="1.0" encoding="utf-8"?>\n<D:prop xmlns:D="DAV:"><D:lockdiscovery>${activeLockXml(lock, DAV_PREFIX, path)}</D:lockdiscovery></D:prop>`;
  return { status, headers: { 'Content-Type': 'application/xml; charset=utf-8', ...(created ? { 'Lock-Token': `<${lock.token}>` } : {}) }, body: discovery };
}

function parseTimeout(value: string | undefined): number {
  for (const part of (value ?? '').split(',')) {
    const match = /^\s*Second-(\d+)\s*$/i.exec(part);
    if (match) return Math.max(1, Math.min(MAX_TIMEOUT, Number(match[1])));
  }
  return MAX_TIMEOUT;
}
