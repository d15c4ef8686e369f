import type { Actor } from '../access/actor.js';
import { preconditionRefusal } from './preconditions.js';
import { multistatus, propfindXml, type DavResponse, type PropRequest } from './props.js';
import type { WebDavRepository } from './repository.js';
import { DAV_PREFIX, fail, header, type DavContext, type DavRequest, type WebDavDeps } from './request.js';
import { resolve, sharedEntries, topsOf, type Collection, type Listed } from './resources.js';
import { childOf, childrenOf, DAV, elementsOf, rawXml } from './xml.js';
import { spaceOf } from '../drive/repository.js';

/** PROPFIND at Depth 0 or 1: live properties from the drive, dead ones from the repository, and the locks that apply. */
export async function propfind({ deps, locks }: DavContext, actor: Actor, request: DavRequest, path: string[]): Promise<DavResponse> {
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
  const resource = await resolve(deps, actor, path);
  if (resource.kind === 'missing' || resource.kind === 'orphan') return { status: 404 };
  const members: Listed[] = [resource];
  if (depth === '1') members.push(...(await membersOf(deps, actor, resource)));
  const dead = await deadPropertiesOf(deps, resource, members);
  // Summing what the payer stores is the dearest part of a listing: only an answer that shows the quota pays for it (allprop leaves it out).
  const showsQuota = wanted.kind === 'propname' || (wanted.kind === 'prop' && wanted.names.some((n) => n.ns === DAV && n.name.startsWith('quota-')));
  const usage =
    resource.kind === 'root' || !showsQuota
      ? null
      : await deps.drive.usage(
          actor,
          resource.kind === 'entry' ? { ownerId: resource.entry.owner_id, workspaceId: resource.entry.workspace_id } : resource.scope,
        );
  const held = await locks.locksFor(actor, members);
  return {
    status: 207,
    headers: { 'Content-Type': 'application/xml; charset=utf-8' },
    body: propfindXml(DAV_PREFIX, members, wanted, { dead, usage, locks: held }),
  };
}

/**
 * The dead properties of a PROPFIND's members: of a folder's (or a space's)
 * children by their folder, in one statement however many there are; of the
 * few virtual members (the root, Shared with me) by their ids.
 */
function deadPropertiesOf(deps: WebDavDeps, resource: Collection, members: Listed[]) {
  const own = resource.kind === 'entry' ? resource.entry.id : null;
  if (members.length > 1 && (resource.kind === 'entry' || (resource.kind === 'top' && resource.top.kind === 'space'))) {
    const space = resource.kind === 'entry' ? spaceOf(resource.entry) : resource.scope;
    return deps.repo.propertiesOfChildren(own, space, own);
  }
  return deps.repo.properties(members.flatMap((m) => (m.kind === 'entry' ? [m.entry.id] : [])));
}

async function membersOf(deps: WebDavDeps, actor: Actor, resource: Collection): Promise<Listed[]> {
  if (resource.kind === 'root') {
    const tops = await topsOf(deps, actor);
    const result: Listed[] = [];
    for (const top of tops) result.push({ kind: 'top', top, scope: await deps.scope(actor, top.kind === 'space' ? top.workspaceId : null), path: [top.name] });
    return result;
  }
  if (resource.kind === 'top' && resource.top.kind === 'shared') {
    return (await sharedEntries(deps, actor)).map(({ name, entry }) => ({
      kind: 'entry',
      entry,
      scope: resource.scope,
      top: resource.top,
      path: [...resource.path, name],
    }));
  }
  if (resource.kind === 'entry' && resource.entry.type !== 'folder') return [];
  // The folder resolve just found and checked: the listing's own check decides on that row (no second look-up).
  const children = await deps.drive.childrenOfLoaded(actor, resource.scope, resource.kind === 'entry' ? resource.entry : null);
  const { scope, top, path } = resource;
  return children.map((entry) => ({ kind: 'entry', entry, scope, top, path: [...path, entry.name] }));
}

/** PROPPATCH: dead properties set and removed all or nothing; live (DAV:) ones are the drive's and refuse the whole request. */
export async function proppatch({ deps, locks }: DavContext, actor: Actor, request: DavRequest, path: string[]): Promise<DavResponse> {
  const root = await request.xml();
  if (!root || root.ns !== DAV || root.name !== 'propertyupdate') return { status: 400 };
  const resource = await resolve(deps, actor, path);
  if (resource.kind === 'missing' || resource.kind === 'orphan') return { status: 404 };
  if (resource.kind !== 'entry') return { status: 403 };
  await deps.drive.entry(actor, 'files.update', resource.entry.hash);
  const refusal = preconditionRefusal(request, resource) ?? (await locks.check(actor, request, resource, false));
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
  await deps.repo.patchProperties(resource.entry.id, changes);
  return multistatus([{ href: resource.path, collection: resource.entry.type === 'folder', propstats: [{ status: 200, props: names }] }]);
}
